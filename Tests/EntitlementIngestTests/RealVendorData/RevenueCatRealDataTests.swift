import Foundation
import Testing
import EntitlementTestSupport

/// RevenueCat's webhook events through `ingest --from`, `webhook` behind lighttpd and `import`:
/// the project's own body of every documented event type (Fixtures/events/revenuecat), and,
/// when ../shared is beside the repository, RevenueCat's published sample bodies read in place
/// (they have no licence, so they are not copied). Documents (`GET /subscribers`, RevenueCat's
/// SDK samples) are what `import` reads (VendorTruthTests, VendorSampleConformanceTests); handed
/// to `ingest` or the webhook they are refused by name. docs/import.md, section 17.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct RevenueCatRealDataTests {
    typealias E = RealEvents.Expectation
    static let refusal = "RevenueCat webhook event, applied by `entitlement ingest --from DIR` or `entitlement webhook`, not imported"

    static let expectations: [E] = [
        E(user: "rc-test", at: "2026-01-05T00:00:00Z", state: "never"),
        E(user: "rc-initial", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "rc-initial", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "rc-trial", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "rc-renewal", at: "2026-02-05T00:00:00Z", state: "active"),
        E(user: "rc-cancel", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "rc-refund", at: "2026-01-20T00:00:00Z", state: "revoked"),
        E(user: "rc-uncancel", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "rc-lifetime", at: "2027-01-01T00:00:00Z", state: "active"),
        E(user: "rc-paused", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "rc-paused", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "rc-expired", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "rc-billing", at: "2026-02-03T00:00:00Z", state: "grace_period"),
        E(user: "rc-billing", at: "2026-02-08T00:00:00Z", state: "billing_retry"),
        E(user: "rc-change", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "rc-transfer-to", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "rc-transfer-from", at: "2026-01-20T00:00:00Z", state: "never"),
        E(user: "rc-extended", at: "2026-02-10T00:00:00Z", state: "active"),
        E(user: "rc-temporary", at: "2026-01-01T12:00:00Z", state: "active"),
        E(user: "rc-temporary", at: "2026-01-03T00:00:00Z", state: "expired"),
        E(user: "rc-reversed", at: "2026-01-20T00:00:00Z", state: "active"),
    ]

    @Test func everyDocumentedEventTypeThroughEveryPath() throws {
        let bodies = try RealEvents.lines(RealEvents.events + "revenuecat/every-event-type.jsonl")
        try RealEvents.throughEveryPath("revenuecat", bodies, Self.expectations, importRefusal: Self.refusal)
    }

    /// RevenueCat's published samples, read in place. Several share one event id (RevenueCat's
    /// placeholder), so each goes into a store of its own; the webhook answers every one 200.
    static let samples = RealEvents.shared + "vendor-events/revenuecat/"
    static let sampleStates: [String: E] = [
        "sample-events_1.json": E(user: "1234567890", at: "2022-07-26T00:00:00Z", state: "active", entitlement: "pro"),
        "sample-events_5.json": E(user: "1234567890", at: "2023-07-26T00:00:00Z", state: "active", entitlement: "pro"),
        "sample-events_6.json": E(user: "1234567890", at: "2022-05-18T00:00:00Z", state: "active", entitlement: "Premium1"),
        "sample-events_7.json": E(user: "$RCAnonymousID:12345678-1234-1234-1234-123456789123", at: "2020-09-29T00:01:00Z", state: "billing_retry", entitlement: "pro"),
        "sample-events_9.json": E(user: "$RCAnonymousID:12345678-1234-ABCD-1234-123456789123", at: "2020-09-29T00:01:00Z", state: "revoked", entitlement: "pro"),
        "sample-events_12.json": E(user: "1234567890", at: "2022-07-26T00:00:00Z", state: "active", entitlement: "Premium"),
        "sample-events_13.json": E(user: "1234567890", at: "2023-10-16T10:18:00Z", state: "expired", entitlement: "pro"),
        "event-types-and-fields_1.json": E(user: "yourCustomerAppUserID", at: "2020-06-03T00:00:00Z", state: "active", entitlement: "pro_cat"),
    ]

    @Test(.enabled(if: RealEvents.sharedHas("vendor-events/revenuecat"), "../shared/vendor-events/revenuecat is not beside the repository (RevenueCat's samples are not copied: no licence)"))
    func revenueCatsPublishedSamplesInPlace() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.samples).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 20)
        let web = TemporaryDirectory()
        let webStore = RealEvents.setUp(web)
        let server = try WebServer(directory: web.path, store: webStore.store, secrets: webStore.secrets)
        defer { server.stop() }
        for file in files {
            let body = try #require(readFile(Self.samples + file))
            let directory = TemporaryDirectory()
            let (store, secrets) = RealEvents.setUp(directory)
            let from = try RealEvents.folder([body], in: directory)
            let ingest = try Binary.run(["ingest", "--from", from, "--store", store, "--secrets", secrets, "--json"])
            #expect(ingest.exitCode == 0 && ingest.stdout.contains("\"applied\": 1"), "\(file): \(ingest.stdout)\(ingest.stderr)")
            if let state = Self.sampleStates[file] { try RealEvents.expectStates([state], store: store, file) }
            let posted = try server.post(RealEvents.url("revenuecat"), body: body, headers: RealEvents.headers["revenuecat"] ?? [:])
            #expect(posted.status == 200, "\(file): \(posted.body)")
            let imported = try Binary.run(["import", Self.samples + file, "--store", store])
            #expect(imported.exitCode == 2 && imported.stderr.contains(Self.refusal), "\(file): \(imported.stderr)")
        }
    }

    /// RevenueCat's SDK subscriber documents (../shared/vendor-samples, MIT; imported and
    /// compared with RevenueCat's verdicts by VendorSampleConformanceTests) are not events.
    @Test(.enabled(if: RealEvents.sharedHas("vendor-samples/revenuecat"), "../shared/vendor-samples/revenuecat is not beside the repository"))
    func subscriberDocumentsAreRefusedAsEvents() throws {
        let folder = RealEvents.shared + "vendor-samples/revenuecat/"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted().map { folder + $0 }
        try RealEvents.documentRefusedAsEvent("revenuecat", files, name: "RevenueCat subscriber",
                                              webhookMessage: "not a well-formed RevenueCat event: RevenueCat subscriber document, not an event")
    }
}
