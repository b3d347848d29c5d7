import Foundation
import Testing
import EntitlementTestSupport

/// Adapty's webhook events through `ingest --from`, `webhook` behind lighttpd and `import`: the
/// project's own body of every documented event type (Fixtures/events/adapty), and, when
/// ../shared is beside the repository, Adapty's published example read in place (no licence:
/// not copied). As published it is not JSON (a missing comma): refused on every path with the
/// parser's message; with the comma put back in memory it is an event like the others.
/// Adapty's profiles (../shared/vendor-samples, vendor-truth) are what `import` reads
/// (VendorTruthTests); handed to `ingest` or the webhook they are refused by name.
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct AdaptyRealDataTests {
    typealias E = RealEvents.Expectation
    static let refusal = "Adapty webhook event, applied by `entitlement ingest --from DIR` or `entitlement webhook`, not imported"

    static let expectations: [E] = [
        E(user: "ad-started", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "ad-started", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "ad-renewed", at: "2026-02-05T00:00:00Z", state: "active"),
        E(user: "ad-trial", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "ad-converted", at: "2026-02-05T00:00:00Z", state: "active"),
        E(user: "ad-deferred", at: "2026-02-10T00:00:00Z", state: "active"),
        E(user: "ad-lifetime", at: "2027-01-01T00:00:00Z", state: "active"),
        E(user: "ad-cancel", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "ad-cancel", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "ad-trial-cancel", at: "2026-01-10T00:00:00Z", state: "expired"),
        E(user: "ad-reactivated", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "ad-trial-reactivated", at: "2026-01-05T00:00:00Z", state: "active"),
        E(user: "ad-paused", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "ad-paused", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "ad-expired", at: "2026-02-05T00:00:00Z", state: "expired"),
        E(user: "ad-trial-expired", at: "2026-01-10T00:00:00Z", state: "expired"),
        E(user: "ad-billing", at: "2026-02-03T00:00:00Z", state: "billing_retry"),
        E(user: "ad-grace", at: "2026-02-03T00:00:00Z", state: "grace_period"),
        E(user: "ad-refunded", at: "2026-01-20T00:00:00Z", state: "revoked"),
        E(user: "ad-purchase-refunded", at: "2026-01-20T00:00:00Z", state: "revoked"),
        E(user: "ad-snapshot", at: "2026-01-20T00:00:00Z", state: "active"),
        E(user: "ad-promo", at: "2026-01-10T00:00:00Z", state: "active"),
        E(user: "ad-promo", at: "2026-01-20T00:00:00Z", state: "expired"),
        E(user: "ad-other", at: "2026-01-20T00:00:00Z", state: "never"),
    ]

    @Test func everyDocumentedEventTypeThroughEveryPath() throws {
        let bodies = try RealEvents.lines(RealEvents.events + "adapty/every-event-type.jsonl")
        try RealEvents.throughEveryPath("adapty", bodies, Self.expectations, importRefusal: Self.refusal)
    }

    static let sample = RealEvents.shared + "vendor-events/adapty/webhook-subscription_started.json"

    @Test(.enabled(if: RealEvents.sharedHas("vendor-events/adapty"), "../shared/vendor-events/adapty is not beside the repository (Adapty's sample is not copied: no licence)"))
    func adaptysPublishedExampleInPlace() throws {
        let published = try #require(readFile(Self.sample))
        // As published: not JSON. The comma Adapty's page leaves out, put back: an event.
        let repaired = published.replacingOccurrences(of: "\"Fluffy\"}\n", with: "\"Fluffy\"},\n")
        try RealEvents.publishedThenRepaired("adapty", published: published, parserMessage: "invalid JSON at line 62, column 3",
                                             repaired: repaired, importRefusal: Self.refusal)
    }

    /// Adapty's SDK and API profiles (MIT and Adapty's docs, ../shared) are documents, not events.
    @Test(.enabled(if: RealEvents.sharedHas("vendor-truth/adapty"), "../shared/vendor-truth/adapty is not beside the repository"))
    func profilesAreRefusedAsEvents() throws {
        var files: [String] = []
        for folder in ["vendor-truth/adapty/", "vendor-samples/adapty/"] where RealEvents.sharedHas(folder) {
            files += try FileManager.default.contentsOfDirectory(atPath: RealEvents.shared + folder)
                .filter { $0.hasSuffix(".json") && $0 != "cases.json" }.sorted().map { RealEvents.shared + folder + $0 }
        }
        #expect(files.count >= 7)
        try RealEvents.documentRefusedAsEvent("adapty", files, name: "Adapty profile", webhookMessage: "not a well-formed Adapty event: Adapty profile document, not an event")
    }
}
