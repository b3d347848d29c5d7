import Foundation
import Testing
import EntitlementTestSupport

/// Qonversion's webhook events through `ingest --from`, `webhook` behind lighttpd and `import`:
/// the project's own body of every documented event name (Fixtures/events/qonversion), and,
/// when ../shared is beside the repository, Qonversion's published example read in place (no
/// licence: not copied). As published it is not JSON (`"app_version" => …`, cut off after
/// `"new_product`): refused with the parser's message; with `=>` read as `:` and the cut field
/// dropped, it is an event like the others. Qonversion's SDK documents (../shared) are what
/// `import` reads (VendorTruthTests); handed to `ingest` or the webhook they are refused by name.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct QonversionRealDataTests {
    typealias E = RealEvents.Expectation
    static let refusal = "Qonversion webhook event, applied by `entitlement ingest --from DIR` or `entitlement webhook`, not imported"

    static let expectations: [E] = [
        E(user: "q-trial", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "q-converted", at: "2026-02-05T00:00:00Z", state: "active"),
        E(user: "q-started", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "q-renewed", at: "2026-02-05T00:00:00Z", state: "active"),
        E(user: "q-upgraded", at: "2026-06-01T00:00:00Z", state: "active"),
        E(user: "q-changed", at: "2026-06-01T00:00:00Z", state: "active"),
        E(user: "q-lifetime", at: "2027-01-01T00:00:00Z", state: "active"),
        E(user: "q-trial-canceled", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "q-trial-canceled", at: "2026-01-10T00:00:00Z", state: "expired"),
        E(user: "q-canceled", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "q-cancelled", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "q-trial-retry", at: "2026-01-10T00:00:00Z", state: "billing_retry"),
        E(user: "q-retry", at: "2026-02-03T00:00:00Z", state: "grace_period"),
        E(user: "q-retry", at: "2026-02-08T00:00:00Z", state: "billing_retry"),
        E(user: "q-trial-expired", at: "2026-01-10T00:00:00Z", state: "expired"),
        E(user: "q-expired", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "q-refunded", at: "2026-01-20T00:00:00Z", state: "revoked"),
        E(user: "q-purchase-refunded", at: "2026-01-20T00:00:00Z", state: "revoked"),
        E(user: "q-still-active", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "q-android", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "q-web", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "q-other", at: "2026-01-20T00:00:00Z", state: "never"),
    ]

    @Test func everyDocumentedEventNameThroughEveryPath() throws {
        let bodies = try RealEvents.lines(RealEvents.events + "qonversion/every-event-type.jsonl")
        try RealEvents.throughEveryPath("qonversion", bodies, Self.expectations, importRefusal: Self.refusal)
    }

    static let sample = RealEvents.shared + "vendor-events/qonversion/webhook-trial_converted.txt"

    @Test(.enabled(if: RealEvents.sharedHas("vendor-events/qonversion"), "../shared/vendor-events/qonversion is not beside the repository (Qonversion's sample is not copied: no licence)"))
    func qonversionsPublishedExampleInPlace() throws {
        let published = try #require(readFile(Self.sample))
        let body = String(published[try #require(published.firstIndex(of: "{"))...])
        // `=>` read as `:`, the field cut off after "new_product dropped, the object closed.
        var repaired = body.replacingOccurrences(of: "\" => \"", with: "\": \"")
        repaired = String(repaired[..<(try #require(repaired.range(of: "\"new_product"))).lowerBound])
        repaired = repaired.trimmingCharacters(in: .whitespacesAndNewlines)
        if repaired.hasSuffix(",") { repaired.removeLast() }
        repaired += "\n}\n"
        try RealEvents.publishedThenRepaired("qonversion", published: body, parserMessage: "invalid JSON at line",
                                             repaired: repaired, importRefusal: Self.refusal)
    }

    /// Qonversion's SDK documents (MIT, ../shared; trailing commas as published) are not events:
    /// `ingest` names each, and so does the webhook's 400.
    @Test(.enabled(if: RealEvents.sharedHas("vendor-truth/qonversion"), "../shared/vendor-truth/qonversion is not beside the repository"))
    func sdkDocumentsAreRefusedAsEvents() throws {
        var files: [String] = []
        for folder in ["vendor-truth/qonversion/", "vendor-samples/qonversion/"] where RealEvents.sharedHas(folder) {
            files += try FileManager.default.contentsOfDirectory(atPath: RealEvents.shared + folder)
                .filter { $0.hasSuffix(".json") && $0 != "cases.json" }.sorted().map { RealEvents.shared + folder + $0 }
        }
        #expect(files.count >= 5)
        let directory = TemporaryDirectory()
        let (store, secrets) = RealEvents.setUp(directory)
        let from = try RealEvents.folder(try files.map { try #require(readFile($0)) }, in: directory)
        let ingest = try Binary.run(["ingest", "--from", from, "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2)
        let named = ingest.stderr.components(separatedBy: "document, not an event: import it with `entitlement import`").count - 1
        #expect(named == files.count, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("Qonversion permissions document") && ingest.stderr.contains("Qonversion entitlements document"), "\(ingest.stderr)")
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        for file in files {
            let posted = try server.post(RealEvents.url("qonversion"), body: try #require(readFile(file)), headers: RealEvents.headers["qonversion"] ?? [:])
            #expect(posted.status == 400 && posted.body.contains("document, not an event: import it with"), "\(file): \(posted.body)")
        }
    }
}
