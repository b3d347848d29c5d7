import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Each Adapty event type, from the raw body (`ingest --stdin`, or `webhook` as CGI) to what
/// `check` answers (docs/ingest.md, "Adapty events").
@Suite(.tags(.cli))
struct AdaptyEventTests {
    typealias F = IngestFixtures

    typealias Case = IngestEventCase

    static let started = F.adapty("subscription_started", id: "a1", at: 0)
    static let trial = F.adapty("trial_started", id: "a1", at: 0, expiresAt: 7)

    static let cases: [Case] = [
        Case(name: "subscription_started gives access", bodies: [started], day: 10, state: "active"),
        Case(name: "subscription_renewed extends it", bodies: [started, F.adapty("subscription_renewed", id: "a2", at: 30, transaction: "t2", purchasedAt: 30, expiresAt: 60)],
             day: 45, state: "active"),
        Case(name: "subscription_renewal_cancelled keeps access until expiry", bodies: [started, F.adapty("subscription_renewal_cancelled", id: "a2", at: 5)],
             day: 10, state: "active"),
        Case(name: "subscription_renewal_cancelled then no renewal", bodies: [started, F.adapty("subscription_renewal_cancelled", id: "a2", at: 5)],
             day: 31, state: "expired"),
        Case(name: "subscription_renewal_reactivated", bodies: [started, F.adapty("subscription_renewal_cancelled", id: "a2", at: 5),
                                                               F.adapty("subscription_renewal_reactivated", id: "a3", at: 6)], day: 10, state: "active"),
        Case(name: "subscription_expired", bodies: [started, F.adapty("subscription_expired", id: "a2", at: 30)], day: 31, state: "expired"),
        Case(name: "subscription_paused keeps access until the period ends", bodies: [started, F.adapty("subscription_paused", id: "a2", at: 5)],
             day: 29, state: "active"),
        Case(name: "subscription_deferred moves the expiry", bodies: [started, F.adapty("subscription_deferred", id: "a2", at: 25, expiresAt: 45)],
             day: 40, state: "active"),
        Case(name: "non_subscription_purchase never expires", bodies: [F.adapty("non_subscription_purchase", id: "a1", at: 0, expiresAt: nil)],
             day: 400, state: "active"),
        Case(name: "non_subscription_purchase_refunded revokes it", bodies: [F.adapty("non_subscription_purchase", id: "a1", at: 0, expiresAt: nil),
                                                                            F.adapty("non_subscription_purchase_refunded", id: "a2", at: 3, expiresAt: nil)],
             day: 10, state: "revoked"),
        Case(name: "trial_started", bodies: [trial], day: 3, state: "active"),
        Case(name: "trial_converted", bodies: [trial, F.adapty("trial_converted", id: "a2", at: 7, transaction: "t2", purchasedAt: 7, expiresAt: 37)],
             day: 20, state: "active"),
        Case(name: "trial_renewal_cancelled keeps the trial", bodies: [trial, F.adapty("trial_renewal_cancelled", id: "a2", at: 2, expiresAt: 7)],
             day: 5, state: "active"),
        Case(name: "trial_renewal_reactivated", bodies: [trial, F.adapty("trial_renewal_cancelled", id: "a2", at: 2, expiresAt: 7),
                                                        F.adapty("trial_renewal_reactivated", id: "a3", at: 3, expiresAt: 7)], day: 5, state: "active"),
        Case(name: "trial_expired", bodies: [trial, F.adapty("trial_expired", id: "a2", at: 7, expiresAt: 7)], day: 8, state: "expired"),
        Case(name: "entered_grace_period keeps access in grace", bodies: [started, F.adapty("entered_grace_period", id: "a2", at: 30, expiresAt: 36)],
             day: 33, state: "grace_period"),
        Case(name: "entered_grace_period, then the grace period ends", bodies: [started, F.adapty("entered_grace_period", id: "a2", at: 30, expiresAt: 36)],
             day: 37, state: "billing_retry"),
        Case(name: "billing_issue_detected: billing retry, no access", bodies: [started, F.adapty("billing_issue_detected", id: "a2", at: 30)],
             day: 31, state: "billing_retry"),
        Case(name: "subscription_refunded revokes", bodies: [started, F.adapty("subscription_refunded", id: "a2", at: 5)], day: 10, state: "revoked"),
        Case(name: "access_level_updated alone gives the level", bodies: [F.adaptyAccessLevel(id: "l1", at: 0, active: true, expiresAt: 30)],
             day: 10, state: "active"),
        Case(name: "access_level_updated inactive ends access at the event", bodies: [started, F.adaptyAccessLevel(id: "l1", at: 5, active: false, expiresAt: 30)],
             day: 10, state: "expired"),
        Case(name: "access_level_updated with is_refund revokes", bodies: [started, F.adaptyAccessLevel(id: "l1", at: 5, active: false, expiresAt: 30, extra: ["is_refund": true])],
             day: 10, state: "revoked"),
        Case(name: "access_level_updated in grace", bodies: [started, F.adaptyAccessLevel(id: "l1", at: 30, active: true, expiresAt: 36,
                                                                                          extra: ["is_in_grace_period": true, "billing_issue_detected_at": F.adaptyDate(30)])],
             day: 33, state: "grace_period"),
        Case(name: "access_level_updated granted by Adapty is a manual grant",
             bodies: [F.adaptyAccessLevel(id: "l1", at: 0, active: true, expiresAt: 10, transaction: nil, extra: ["store": "adapty", "vendor_product_id": NSNull()])],
             day: 5, state: "active"),
    ]

    @Test(arguments: cases)
    func eventGivesState(_ item: Case) {
        F.expectState(item)
    }

    @Test func unknownTypeIsRecordedAndChangesNothing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: F.adapty("profile_attribution_updated", id: "a1", at: 0))
        #expect(ingest.exitCode == 0)
        #expect(ingest.stdout.contains("1 applied"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
    }

    @Test func adaptyProfileIDBecomesTheProfiles() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: Self.started).exitCode == 0)
        #expect(runCLI(["check", "--profile-id", "5f1c-adapty-alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 0)
    }

    @Test func withoutCustomerUserIDTheProfileIDIsTheUser() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: F.adapty("subscription_started", id: "a1", at: 0, user: nil)).exitCode == 0)
        #expect(runCLI(["check", "5f1c-adapty-alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 0)
    }

    @Test(arguments: [
        ("{\"event_type\": \"subscription_started\"}", "event_properties"),
        (F.adapty("subscription_started", id: "a1", at: 0, properties: ["profile_event_id": NSNull()]), "profile_event_id"),
        (F.adapty("subscription_started", id: "a1", at: 0, properties: ["purchase_date": "yesterday"]), "purchase_date"),
        (F.adapty("subscription_started", id: "a1", at: 0, properties: ["transaction_id": NSNull()]), "transaction_id"),
        (F.adapty("subscription_renewal_cancelled", id: "a1", at: 0, properties: ["transaction_id": NSNull(), "original_transaction_id": NSNull()]), "original_transaction_id"),
    ])
    func malformedBodiesAreRefusedNamingTheField(_ body: String, _ field: String) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--vendor", "adapty", "--store", store, "--secrets", secrets], stdin: body)
        #expect(ingest.exitCode == 2)
        #expect(ingest.stdout.contains("1 malformed"), "\(ingest.stdout)")
        #expect((ingest.stdout + ingest.stderr).contains(field), "\(ingest.stdout)\(ingest.stderr)")
    }

    /// Found by the fuzz harnesses: an entitlement id config.json cannot hold used to fail the
    /// journal of the whole batch (exit 4, every event kept back); now that event alone is malformed.
    @Test func anEntitlementIDConfigCannotHoldIsMalformedAndTheBatchApplies() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let bodies = [F.adapty("subscription_started", id: "bad", at: 0, user: "bob", properties: ["access_level_id": "pre\u{1}mium"]),
                      F.revenueCat("INITIAL_PURCHASE", id: "bad-rc", at: 0, user: "carol", extra: ["entitlement_ids": [""]]), Self.started]
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n"))
        #expect(ingest.exitCode == 2, "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.stdout.contains("1 applied"))
        #expect(ingest.stdout.contains("2 malformed"))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 0)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func webhookTakesTheHeaderAndAnswersTheSavePing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let post = { (body: String, authorization: String?) in
            WebhookCGITests.post("adapty", body, store: store, secrets: secrets, authorization: authorization)
        }
        let ping = post("{}", F.adaptySecret)
        #expect(WebhookCGITests.status(ping) == "Status: 200 OK")
        #expect(ping.stdout.contains("\"events\": 0"))
        #expect(WebhookCGITests.status(post(Self.started, nil)) == "Status: 401 Unauthorized")
        #expect(WebhookCGITests.status(post(Self.started, "adapty-secreT")) == "Status: 403 Forbidden")
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 1)
        let valid = post(Self.started, F.adaptySecret)
        #expect(WebhookCGITests.accepted(valid))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 0)
        let applied = WebhookCGITests.transactions(of: "alice", in: store)
        #expect(applied > 0)
        let replay = post(Self.started, F.adaptySecret)
        #expect(WebhookCGITests.accepted(replay))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == applied)
        #expect(WebhookCGITests.status(post("{\"event_type\": 1, \"event_properties\": {}}", F.adaptySecret)) == "Status: 400 Bad Request")
    }
}
