import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementIngest
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport
@testable import EntitlementTrust

/// Each Qonversion event type, from the raw body (`ingest --stdin`, or `webhook` as CGI) to
/// what `check` answers (docs/ingest.md, "Qonversion events").
@Suite(.tags(.cli))
struct QonversionEventTests {
    typealias F = IngestFixtures

    typealias Case = IngestEventCase

    static let started = F.qonversion("subscription_started", at: 0, purchasedAt: 0)
    static let trial = F.qonversion("trial_started", at: 0, expiresAt: 7)

    static let cases: [Case] = [
        Case(name: "subscription_started gives access", bodies: [started], day: 10, state: "active"),
        Case(name: "subscription_renewed extends it", bodies: [started, F.qonversion("subscription_renewed", at: 30, transaction: 501, expiresAt: 60)],
             day: 45, state: "active"),
        Case(name: "subscription_upgraded", bodies: [started, F.qonversion("subscription_upgraded", at: 10, transaction: 502, expiresAt: 40)], day: 35, state: "active"),
        Case(name: "subscription_product_changed names the new product", bodies: [started, F.qonversion("subscription_product_changed", at: 10, transaction: 502, expiresAt: 40,
                                                                                                         extra: ["product_id": "old", "new_product_id": "monthly"])],
             day: 35, state: "active"),
        Case(name: "subscription_canceled keeps access until expiry", bodies: [started, F.qonversion("subscription_canceled", at: 5)], day: 10, state: "active"),
        Case(name: "subscription_canceled then no renewal", bodies: [started, F.qonversion("subscription_canceled", at: 5)], day: 31, state: "expired"),
        Case(name: "subscription_cancelled is read the same", bodies: [started, F.qonversion("subscription_cancelled", at: 5)], day: 31, state: "expired"),
        Case(name: "subscription_billing_retry: no access", bodies: [started, F.qonversion("subscription_billing_retry", at: 30)], day: 31, state: "billing_retry"),
        Case(name: "subscription_billing_retry with grace_period_expires", bodies: [started, F.qonversion("subscription_billing_retry", at: 30,
                                                                                                          extra: ["transaction": ["transaction_id": 500, "original_transaction_id": 500, "expires": F.base / 1000 + 30 * 86_400, "grace_period_expires": F.base / 1000 + 36 * 86_400]])],
             day: 33, state: "grace_period"),
        Case(name: "subscription_refunded revokes", bodies: [started, F.qonversion("subscription_refunded", at: 5, purchasedAt: 0)], day: 10, state: "revoked"),
        Case(name: "subscription_expired", bodies: [started, F.qonversion("subscription_expired", at: 30)], day: 31, state: "expired"),
        Case(name: "trial_started", bodies: [trial], day: 3, state: "active"),
        Case(name: "trial_converted", bodies: [trial, F.qonversion("trial_converted", at: 7, transaction: 501, expiresAt: 37)], day: 20, state: "active"),
        Case(name: "trial_canceled keeps the trial", bodies: [trial, F.qonversion("trial_canceled", at: 2, expiresAt: 7)], day: 5, state: "active"),
        Case(name: "trial_billing_retry", bodies: [trial, F.qonversion("trial_billing_retry", at: 7, expiresAt: 7)], day: 8, state: "billing_retry"),
        Case(name: "trial_expired", bodies: [trial, F.qonversion("trial_expired", at: 7, expiresAt: 7)], day: 8, state: "expired"),
        Case(name: "in_app_purchase never expires", bodies: [F.qonversion("in_app_purchase", at: 0, expiresAt: nil)], day: 400, state: "active"),
        Case(name: "in_app_refunded revokes it", bodies: [F.qonversion("in_app_purchase", at: 0, expiresAt: nil),
                                                         F.qonversion("in_app_refunded", at: 3, purchasedAt: 0, expiresAt: nil)], day: 10, state: "revoked"),
        Case(name: "trial_still_active changes nothing", bodies: [trial, F.qonversion("trial_still_active", at: 2, expiresAt: 7)], day: 5, state: "active"),
    ]

    @Test(arguments: cases)
    func eventGivesState(_ item: Case) {
        F.expectState(item)
    }

    @Test func theKeyIsBuiltFromTheEventsFields() throws {
        let request = WebhookRequest(vendor: .qonversion, body: Array(Self.started.utf8), receivedAt: Date(timeIntervalSince1970: 0), overHTTP: false)
        let events = try QonversionAdapter().events(in: request, with: WebhookAuthenticator(secrets: nil, appStore: nil))
        #expect(events.map(\.id) == [#"["QON_alice","subscription_started","monthly","500",1767225600]"#])
        #expect(events.first?.customer == "alice")
        #expect(events.first?.effects.aliases == ["QON_alice"])
    }

    @Test func theQonversionIDIsAnAliasThatCheckFinds() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: Self.started).exitCode == 0)
        let check = runCLI(["check", "QON_alice", "premium", "--store", store, "--at", F.at(10)])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("alice"))
    }

    @Test func withoutCustomUserIDTheQonversionIDIsTheUser() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.qonversion("subscription_started", at: 0, extra: ["custom_user_id": ""])
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body).exitCode == 0)
        #expect(runCLI(["check", "QON_alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 0)
    }

    @Test func unknownTypeIsRecordedAndChangesNothing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: F.qonversion("entitlement_granted", at: 0))
        #expect(ingest.exitCode == 0)
        #expect(ingest.stdout.contains("1 applied"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
    }

    @Test(arguments: [
        (F.qonversion("subscription_started", at: 0, extra: ["time": NSNull()]), "time"),
        (F.qonversion("subscription_started", at: 0, extra: ["time": "soon"]), "time"),
        (F.qonversion("subscription_started", at: 0, transaction: nil), "transaction"),
        (F.qonversion("subscription_started", at: 0, expiresAt: nil), "expires"),
        (F.qonversion("subscription_canceled", at: 0, transaction: nil), "transaction"),
        (#"{"event_name": "trial_started", "user_id": ""}"#, "user_id"),
    ])
    func malformedBodiesAreRefusedNamingTheField(_ body: String, _ field: String) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--vendor", "qonversion", "--store", store, "--secrets", secrets], stdin: body)
        #expect(ingest.exitCode == 2)
        #expect(ingest.stdout.contains("1 malformed"), "\(ingest.stdout)")
        #expect((ingest.stdout + ingest.stderr).contains(field), "\(ingest.stdout)\(ingest.stderr)")
    }

    @Test func webhookTakesTheBasicToken() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let post = { (body: String, authorization: String?) in
            WebhookCGITests.post("qonversion", body, store: store, secrets: secrets, authorization: authorization)
        }
        #expect(WebhookCGITests.status(post(Self.started, nil)) == "Status: 401 Unauthorized")
        let forged = post(Self.started, "Basic q-secreT")
        #expect(WebhookCGITests.status(forged) == "Status: 403 Forbidden")
        #expect(!forged.stderr.contains("q-secre"))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 1)
        let valid = post(Self.started, F.qonversionSecret)
        #expect(WebhookCGITests.status(valid) == "Status: 200 OK")
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(10)]).exitCode == 0)
        let applied = WebhookCGITests.transactions(of: "alice", in: store)
        #expect(applied > 0)
        #expect(WebhookCGITests.accepted(post(Self.started, F.qonversionSecret)))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == applied)
        #expect(WebhookCGITests.status(post("[1, 2]", F.qonversionSecret)) == "Status: 400 Bad Request")
    }
}
