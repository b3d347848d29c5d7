import Foundation
import Testing
import EntitlementTestSupport

/// Google's own documented material (Apache 2.0 code samples; Fixtures/import/googleplay/google-docs
/// and Fixtures/events/googleplay, with their SOURCE notes) through `import`, `ingest --from` and
/// `webhook` behind lighttpd: the SubscriptionPurchaseV2 lifecycle examples (documents: imported,
/// refused by name as events), the snippets verbatim (not JSON: refused with the parser's
/// message), the RTDN examples in their Pub/Sub envelope (events: recorded, refused by name by
/// `import`), and the reference page's envelope, whose `data` is a type sketch (malformed).
@Suite(.tags(.endToEnd), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.available, "needs lighttpd, curl and the built binary (scripts/ensure-tools.sh)"))
struct GooglePlayRealDataTests {
    typealias E = RealEvents.Expectation
    static let docs = repositoryRoot + "/Fixtures/import/googleplay/google-docs/"
    static let refusal = "Google Play real-time developer notification, applied by `entitlement ingest --from DIR` or `entitlement webhook`, not imported"

    /// Each lifecycle example, the instant it is read at, and what Google's state gives.
    static let lifecycle: [(file: String, at: String, state: String)] = [
        ("new-purchase.json", "2022-04-23T00:00:00Z", "active"),
        ("renewal.json", "2022-05-01T00:00:00Z", "active"),
        ("grace-period.json", "2022-05-30T00:00:00Z", "grace_period"),
        ("account-hold.json", "2022-06-10T00:00:00Z", "billing_retry"),
    ]

    @Test func googlesLifecycleExamplesImportAndAgree() throws {
        let sequence = TemporaryDirectory()
        let (sequenceStore, _) = RealEvents.setUp(sequence)
        for item in Self.lifecycle {
            let directory = TemporaryDirectory()
            let (store, _) = RealEvents.setUp(directory)
            let imported = try Binary.run(["import", Self.docs + item.file, "--store", store, "--user", "gp-user", "--at", item.at])
            #expect(imported.exitCode == 0, "\(item.file): \(imported.stdout)\(imported.stderr)")
            #expect(imported.stdout.contains("0 disagreements"), "\(item.file): \(imported.stdout)")
            try RealEvents.expectStates([E(user: "gp-user", at: item.at, state: item.state)], store: store, item.file)
            // The same subscription's life, imported in order into one store.
            let next = try Binary.run(["import", Self.docs + item.file, "--store", sequenceStore, "--user", "gp-user", "--at", item.at])
            #expect(next.exitCode == 0 && next.stdout.contains("0 disagreements"), "\(item.file): \(next.stdout)\(next.stderr)")
            try RealEvents.expectStates([E(user: "gp-user", at: item.at, state: item.state)], store: sequenceStore, "sequence " + item.file)
        }
        let profile = try #require(readFile(sequenceStore + "/profiles/gp-user.json"))
        #expect(profile.components(separatedBy: "\"transaction_id\": \"gp-docs-token\"").count == 2, "one transaction, updated")
    }

    @Test func googlesLifecycleExamplesAreRefusedAsEvents() throws {
        try RealEvents.documentRefusedAsEvent("googleplay", Self.lifecycle.map { Self.docs + $0.file },
                                              name: "Google Play subscription purchase", webhookMessage: "not a well-formed Google Play event: Google Play subscription purchase document, not an event")
    }

    /// Google's snippets as published (placeholders, comments, elisions): refused with the parser's message.
    @Test func googlesSnippetsVerbatimAreRefusedAsNotJSON() throws {
        let text = try #require(readFile(Self.docs + "lifecycle-snippets.txt"))
        let snippets = text.components(separatedBy: "\n-- ").dropFirst().map { part in
            String(part.drop { $0 != "\n" }).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(snippets.count == 4)
        let directory = TemporaryDirectory()
        let (store, secrets) = RealEvents.setUp(directory)
        let from = try RealEvents.folder(snippets, in: directory)
        for index in snippets.indices {
            let imported = try Binary.run(["import", from + String(format: "/%03d.json", index), "--store", store, "--user", "gp-user"])
            #expect(imported.exitCode == 4 && imported.stderr.contains("invalid JSON at line"), "\(imported.stderr)")
        }
        let ingest = try Binary.run(["ingest", "--from", from, "--vendor", "googleplay", "--store", store, "--secrets", secrets, "--json"])
        #expect(ingest.exitCode == 2 && ingest.stdout.contains("\"malformed\": 4"), "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.stderr.contains("googleplay: malformed: invalid JSON at line"), "\(ingest.stderr)")
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        for snippet in snippets {
            let posted = try server.post(RealEvents.url("googleplay"), body: snippet)
            #expect(posted.status == 400 && posted.body.contains("invalid JSON at line"), "\(posted.body)")
        }
    }

    /// Google's RTDN examples (subscription, voided purchase, test, one-time product) in their
    /// Pub/Sub envelope: 200 through lighttpd, applied by `ingest --from`, the tokens that
    /// change a purchase awaiting their document, and refused by name by `import`.
    @Test func googlesNotificationExamplesThroughEveryPath() throws {
        let names = ["rtdn-subscription-purchased.json", "rtdn-voided-purchase.json", "rtdn-test.json", "rtdn-one-time-product.json"]
        let bodies = try names.map { try #require(readFile(RealEvents.events + "googleplay/" + $0)) }
        try RealEvents.throughEveryPath("googleplay", bodies, [], importRefusal: Self.refusal)
        let directory = TemporaryDirectory()
        let (store, secrets) = RealEvents.setUp(directory)
        let from = try RealEvents.folder(bodies, in: directory)
        #expect(try Binary.run(["ingest", "--from", from, "--store", store, "--secrets", secrets]).exitCode == 0)
        let status = try Binary.run(["ingest", "--status", "--store", store, "--json"])
        #expect(status.stdout.contains("\"purchase_token\": \"PURCHASE_TOKEN\""), "\(status.stdout)")
        #expect(status.stdout.contains("\"notified_at\": \"1985-12-13T19:20:00Z\""), "\(status.stdout)")
    }

    /// The reference page's envelope: its `data` decodes to a type sketch, not JSON.
    @Test func theReferenceEnvelopeIsMalformedOnEveryPath() throws {
        let file = RealEvents.events + "googleplay/pubsub-push-envelope-google-sample.json"
        let body = try #require(readFile(file))
        if RealEvents.sharedHas("vendor-events/googleplay/pubsub-push-envelope.json") {
            #expect(readFile(RealEvents.shared + "vendor-events/googleplay/pubsub-push-envelope.json") == body)
        }
        let directory = TemporaryDirectory()
        let (store, secrets) = RealEvents.setUp(directory)
        let from = try RealEvents.folder([body], in: directory)
        let ingest = try Binary.run(["ingest", "--from", from, "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2 && ingest.stderr.contains("googleplay: malformed: message.data: not base64 of a JSON object"), "\(ingest.stderr)")
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let posted = try server.post(RealEvents.url("googleplay"), body: body)
        #expect(posted.status == 400 && posted.body.contains("not base64 of a JSON object"), "\(posted.body)")
        let imported = try Binary.run(["import", file, "--store", store])
        #expect(imported.exitCode == 2 && imported.stderr.contains(Self.refusal), "\(imported.stderr)")
    }
}
