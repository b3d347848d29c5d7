import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Stripe events, from the raw body (`ingest --stdin`, `webhook stripe`) to what `check` answers:
/// event sequences through every status, shuffled arrivals, and `Stripe-Signature`.
@Suite(.tags(.cli))
struct StripeEventTests {
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["prod_P"]}}}"#
    /// 2026-01-01T00:00:00Z and one day, in Stripe's seconds.
    static let base = 1_767_225_600
    static let day = 86_400

    /// A `customer.subscription.*` event whose subscription is in `status` for the period `from`–`to` (days).
    static func event(_ type: String, id: String, at: Double, status: String, from: Int, to: Int, extra: [String: Any] = [:]) -> String {
        var subscription: [String: Any] = [
            "id": "sub_1", "object": "subscription", "customer": "cus_A", "status": status, "livemode": true, "start_date": base,
            "current_period_start": base + from * day, "current_period_end": base + to * day, "cancel_at_period_end": false,
            "canceled_at": NSNull(), "ended_at": NSNull(), "pause_collection": NSNull(), "metadata": [String: Any](),
            "items": ["object": "list", "data": [["id": "si_1", "price": ["id": "price_P", "product": "prod_P"]]]],
        ]
        for (key, value) in extra { subscription[key] = value }
        return IngestFixtures.json(["id": id, "object": "event", "type": type, "created": base + Int(at * Double(day)),
                                    "data": ["object": subscription]])
    }

    static func store(in directory: TemporaryDirectory) -> (String, String) {
        let store = directory.store(config: config)
        let secrets = directory.path + "/secrets.json"
        writeFile(secrets, IngestFixtures.json(["stripe": ["signing_secrets": ["whsec_test_secret"]], "googleplay": ["push_token": "push-secret"]]))
        chmod(secrets, 0o600)
        return (store, secrets)
    }

    static func states(_ bodies: [String], at days: [Double]) -> [String] {
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n"))
        #expect(ingest.exitCode == 0, "\(ingest.stdout) \(ingest.stderr)")
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
        return days.map { day in
            let at = ISODate.format(Date(timeIntervalSince1970: Double(base + Int(day * Double(Self.day)))))
            let check = runCLI(["check", "cus_A", "premium", "--store", store, "--at", at, "--json"])
            return (try? JSONParser.parse(check.stdout))?["state"]?.stringValue ?? "?"
        }
    }

    /// A live store: each body is ingested in turn, and `check` answers at the days given after it
    /// (renewal facts are the latest event's, as the vendor states them: docs/ingest.md, "Stripe").
    static func progression(_ steps: [(String, [Double])]) -> [String] {
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.store(in: directory)
        var states: [String] = []
        for (body, days) in steps {
            let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
            #expect(ingest.exitCode == 0, "\(ingest.stdout) \(ingest.stderr)")
            for day in days {
                let at = ISODate.format(Date(timeIntervalSince1970: Double(base + Int(day * Double(Self.day)))))
                let check = runCLI(["check", "cus_A", "premium", "--store", store, "--at", at, "--json"])
                states.append((try? JSONParser.parse(check.stdout))?["state"]?.stringValue ?? "?")
            }
        }
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
        return states
    }

    static let subscribeFailHoldRecover = [
        event("customer.subscription.created", id: "evt_1", at: 0, status: "active", from: 0, to: 30),
        event("customer.subscription.updated", id: "evt_2", at: 30, status: "past_due", from: 30, to: 60),
        event("customer.subscription.updated", id: "evt_3", at: 44, status: "unpaid", from: 30, to: 60),
        event("customer.subscription.updated", id: "evt_4", at: 50, status: "active", from: 50, to: 80),
    ]

    @Test func subscribeFailHoldRecover() {
        let days: [[Double]] = [[-1, 10, 29], [35, 59], [45, 61], [55, 79, 81]]
        let steps = zip(Self.subscribeFailHoldRecover, days).map { ($0, $1) }
        #expect(Self.progression(steps) == ["never", "active", "active", "grace_period", "grace_period", "billing_retry", "billing_retry",
                                            "active", "active", "expired"])
    }

    @Test func pauseAndResume() {
        let bodies = [
            Self.event("customer.subscription.created", id: "evt_1", at: 0, status: "active", from: 0, to: 30),
            Self.event("customer.subscription.updated", id: "evt_2", at: 10, status: "active", from: 0, to: 30,
                       extra: ["pause_collection": ["behavior": "void", "resumes_at": Self.base + 60 * Self.day]]),
            Self.event("customer.subscription.resumed", id: "evt_3", at: 60, status: "active", from: 60, to: 90),
        ]
        #expect(Self.progression([(bodies[0], [20]), (bodies[1], [20, 40, 59.9, 61]), (bodies[2], [70])])
            == ["active", "active", "paused", "paused", "expired", "active"])
        #expect(Self.states(Array(bodies.prefix(2)), at: [5, 40, 61]) == ["active", "paused", "expired"])
        let trialPaused = Self.event("customer.subscription.paused", id: "evt_9", at: 14, status: "paused", from: 0, to: 14,
                                     extra: ["trial_start": Self.base, "trial_end": Self.base + 14 * Self.day])
        #expect(Self.states([trialPaused], at: [7, 20]) == ["active", "paused"])
    }

    @Test func pastDueThenUnpaid() {
        let bodies = [Self.subscribeFailHoldRecover[0], Self.subscribeFailHoldRecover[1], Self.subscribeFailHoldRecover[2]]
        #expect(Self.progression([(bodies[0], []), (bodies[1], [31]), (bodies[2], [45, 70])]) == ["grace_period", "billing_retry", "billing_retry"])
    }

    @Test func cancelAtPeriodEnd() {
        let bodies = [
            Self.event("customer.subscription.created", id: "evt_1", at: 0, status: "active", from: 0, to: 30),
            Self.event("customer.subscription.updated", id: "evt_2", at: 5, status: "active", from: 0, to: 30,
                       extra: ["cancel_at_period_end": true, "canceled_at": Self.base + 5 * Self.day]),
            Self.event("customer.subscription.deleted", id: "evt_3", at: 30, status: "canceled", from: 0, to: 30,
                       extra: ["canceled_at": Self.base + 5 * Self.day, "ended_at": Self.base + 30 * Self.day]),
        ]
        #expect(Self.states(bodies, at: [3, 29, 31]) == ["active", "active", "expired"])
    }

    /// Any arrival order of the same events gives byte-identical profiles.
    @Test func shuffledOrdersConverge() throws {
        var random = SplitMix64(seed: 26)
        var profiles: Set<String> = []
        for _ in 0..<6 {
            var bodies = Self.subscribeFailHoldRecover
            for index in bodies.indices.reversed() { bodies.swapAt(index, Int(random.next() % UInt64(index + 1))) }
            let directory = TemporaryDirectory()
            let (store, secrets) = Self.store(in: directory)
            for body in bodies { _ = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body) }
            profiles.insert(try #require(readFile(store + "/profiles/cus_A.json")))
        }
        #expect(profiles.count == 1)
    }

    @Test func duplicatesAndUnmappedTypesChangeNothing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.store(in: directory)
        let body = Self.subscribeFailHoldRecover[0]
        let first = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        let again = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        #expect(first.stdout.contains("1 applied") && again.stdout.contains("1 duplicate"), "\(again.stdout)")
        let invoice = IngestFixtures.json(["id": "evt_in", "object": "event", "type": "invoice.payment_failed", "created": Self.base,
                                           "data": ["object": ["id": "in_1", "object": "invoice", "customer": "cus_A", "subscription": "sub_1"]]])
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: invoice).stdout.contains("1 applied"))
    }

    /// `charge.refunded` with its invoice expanded revokes the period the invoice paid.
    @Test func aRefundedChargeRevokesItsPeriod() {
        let refund = IngestFixtures.json(["id": "evt_r", "object": "event", "type": "charge.refunded", "created": Self.base + 3 * Self.day, "data": ["object": [
            "id": "ch_1", "object": "charge", "customer": "cus_A", "refunded": true,
            "invoice": ["id": "in_1", "subscription": "sub_1", "lines": ["data": [["period": ["start": Self.base, "end": Self.base + 30 * Self.day],
                                                                                     "price": ["id": "price_P", "product": "prod_P"]]]]]]]])
        #expect(Self.states([Self.subscribeFailHoldRecover[0], refund], at: [2, 10]) == ["active", "revoked"])
    }

    /// Stripe's MIT test payload with the derived `Stripe-Signature` (t=12345, `whsec_test_secret`).
    @Test func webhookChecksTheSignature() throws {
        let payload = try #require(readFile(repositoryRoot + "/Fixtures/import/stripe/mit-dummy-webhook-payload.json"))
        let header = "t=12345,v1=07b1ede164afb7b5de91267ffa656f568c65d6e0783ce0ac55ee094643578eda"
        func post(_ signature: String?, now: Double) -> String {
            let directory = TemporaryDirectory()
            let (store, secrets) = Self.store(in: directory)
            var environment = ["REQUEST_METHOD": "POST", "CONTENT_LENGTH": String(payload.utf8.count), "GATEWAY_INTERFACE": "CGI/1.1"]
            if let signature { environment["HTTP_STRIPE_SIGNATURE"] = signature }
            let result = runCLI(["webhook", "stripe", "--store", store, "--secrets", secrets], stdin: payload, environment: environment,
                                now: Date(timeIntervalSince1970: now))
            return result.stdout.components(separatedBy: "\r\n").first ?? ""
        }
        // Authenticated (else 401 or 403), but the payload has no `type` or `created`: not a well-formed event.
        #expect(post(header, now: 12_345 + 10).hasPrefix("Status: 400"))
        #expect(post(header, now: 12_345 + 301).hasPrefix("Status: 403"), "too old")
        #expect(post(header + ",v1=bad_signature", now: 12_400).hasPrefix("Status: 400"))
        #expect(post("t=12345,v1=bad_signature", now: 12_400).hasPrefix("Status: 403"))
        #expect(post("t=12345,v0=07b1ede164afb7b5de91267ffa656f568c65d6e0783ce0ac55ee094643578eda", now: 12_400).hasPrefix("Status: 403"))
        #expect(post(nil, now: 12_400).hasPrefix("Status: 401"))
    }
}
