import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport
@testable import EntitlementTrust

/// Events of older Stripe API versions through `webhook stripe` (CGI) and `ingest --from`:
/// stripe-java's webhook-events.json entries carry no `"object": "event"`, and their
/// subscriptions no `id`. Each is answered 200 (else Stripe retries for three days).
@Suite(.tags(.cli))
struct StripeOlderShapesTests {
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["FR010_00000000000000"]}}}"#

    static func events() throws -> [(type: String, body: String)] {
        let path = repositoryRoot + "/Fixtures/import/stripe/sdk/stripe-java-webhook-events-2012.json"
        let list = try JSONParser.parse(try #require(readFile(path))).arrayValue
        return list.map { ($0["type"]?.stringValue ?? "?", String(decoding: JSONWriter().bytes($0), as: UTF8.self)) }
    }

    /// The store and a secrets file with Stripe's test secret; a signature for `body` at `t`.
    static func store(in directory: TemporaryDirectory) -> (String, String) {
        let store = directory.store(config: config)
        let secrets = directory.path + "/secrets.json"
        writeFile(secrets, #"{"stripe": {"signing_secrets": ["whsec_test_secret"]}}"#)
        chmod(secrets, 0o600)
        return (store, secrets)
    }

    static func signature(_ body: String, at time: Int) -> String {
        "t=\(time),v1=" + Digest.hmacSHA256(key: Array("whsec_test_secret".utf8), message: Array("\(time).\(body)".utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Each entry, posted signed through the CGI entry point (every event id in the file is the
    /// same `evt_00000000000000`, so each goes to its own store).
    @Test func webhookAnswers200ToEachAndAppliesTheSubscriptions() throws {
        let now = 1_326_853_478 + 60
        for (type, body) in try Self.events() {
            let directory = TemporaryDirectory()
            let (store, secrets) = Self.store(in: directory)
            let environment = ["REQUEST_METHOD": "POST", "CONTENT_LENGTH": String(body.utf8.count), "GATEWAY_INTERFACE": "CGI/1.1",
                               "HTTP_STRIPE_SIGNATURE": Self.signature(body, at: now - 30)]
            let result = runCLI(["webhook", "stripe", "--store", store, "--secrets", secrets], stdin: body, environment: environment,
                                now: Date(timeIntervalSince1970: Double(now)))
            #expect(result.stdout.hasPrefix("Status: 200"), "\(type): \(result.stdout) \(result.stderr)")
            // trial_will_end is a reminder that changes nothing (docs/ingest.md, "Stripe events").
            let applied = type.hasPrefix("customer.subscription.") && type != "customer.subscription.trial_will_end"
            let check = runCLI(["check", "cus_00000000000000", "premium", "--store", store, "--at", "2012-03-01T00:00:00Z"])
            #expect((check.exitCode == 0) == applied, "\(type)")
        }
    }

    /// `ingest --from DIR`: the four subscription events in one run (one id each), newest decides.
    @Test func ingestFromReadsTheOldEvents() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.store(in: directory)
        let from = directory.path + "/bodies"
        try FileManager.default.createDirectory(atPath: from, withIntermediateDirectories: true)
        for (index, (type, body)) in try Self.events().enumerated() {
            // Distinct ids and increasing times, as a real account's events have.
            guard case .object(var event) = try JSONParser.parse(body) else { Issue.record("not an object"); return }
            event["id"] = .string("evt_\(index)")
            event["created"] = .int(1_326_853_478 + index)
            writeFile(from + "/\(index)-\(type).json", String(decoding: JSONWriter().bytes(.object(event)), as: UTF8.self))
        }
        let result = runCLI(["ingest", "--from", from, "--store", store, "--secrets", secrets, "--json"])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        #expect(!result.stdout.contains("\"malformed\": 1") && !result.stderr.contains("needs"), "\(result.stdout)")
        // created, updated, then deleted (ended 2012-04-10); trial_will_end is a reminder that changes nothing.
        #expect(runCLI(["check", "cus_00000000000000", "premium", "--store", store, "--at", "2012-04-01T00:00:00Z"]).exitCode == 0)
        #expect(runCLI(["check", "cus_00000000000000", "premium", "--store", store, "--at", "2012-04-12T00:00:00Z"]).exitCode == 1)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    /// A subscription that names neither itself nor its customer carries nothing to keep: refused by
    /// name, as `import` refuses it (a malformed event: exit 2, HTTP 400).
    @Test func aSubscriptionWithoutIdOrCustomerIsRefusedByName() {
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.store(in: directory)
        let body = #"{"type": "customer.subscription.created", "id": "evt_1", "created": 1326853478, "data": {"object": {"object": "subscription", "status": "active", "current_period_start": 1329420141, "current_period_end": 1361042541, "plan": {"object": "plan", "id": "FR010"}}}}"#
        let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        #expect(result.exitCode == 2, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("stripe: malformed: data.object.id: missing: a Stripe subscription with neither its own \"id\" nor a \"customer\""), "\(result.stderr)")
    }
}
