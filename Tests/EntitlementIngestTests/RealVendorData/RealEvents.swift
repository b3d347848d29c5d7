import Foundation
import Testing
import EntitlementTestSupport

/// What the real-material suites of the event vendors share: a store and secrets file for
/// every vendor, the three paths (`ingest --from`, `webhook` behind lighttpd, `import`), and
/// the states `check` must then answer. The built binary runs every path.
enum RealEvents {
    static let events = repositoryRoot + "/Fixtures/events/"
    static let shared = repositoryRoot + "/../shared/"
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["monthly", "annual", "lifetime", "monthly:base", "sub_variant_plan01"]}}}"#
    static let headers: [String: [String: String]] = [
        "revenuecat": ["Authorization": "Bearer rc-secret"], "adapty": ["Authorization": "adapty-secret"],
        "qonversion": ["Authorization": "Basic q-secret"], "googleplay": [:],
    ]

    /// True when ../shared holds `path` (CI clones only this repository).
    static func sharedHas(_ path: String) -> Bool { FileManager.default.fileExists(atPath: shared + path) }

    /// The webhook's URL path for `vendor` (Google Play's push token rides in the query).
    static func url(_ vendor: String) -> String {
        vendor == "googleplay" ? "/hooks/entitlement/googleplay?token=gp-token" : "/hooks/entitlement/\(vendor)"
    }

    static func setUp(_ directory: TemporaryDirectory) -> (store: String, secrets: String) {
        let store = directory.store(config: config)
        let secrets = directory.path + "/secrets.json"
        writeFile(secrets, #"{"revenuecat": {"authorization": "Bearer rc-secret"}, "adapty": {"authorization": "adapty-secret"}, "#
                  + #""qonversion": {"authorization": "Basic q-secret"}, "googleplay": {"push_token": "gp-token"}}"#)
        chmod(secrets, 0o600)
        return (store, secrets)
    }

    /// The non-blank lines of a JSON Lines fixture.
    static func lines(_ path: String) throws -> [String] {
        try #require(readFile(path)).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// `bodies` saved one file each in a new folder, named so that they sort in list order.
    static func folder(_ bodies: [String], in directory: TemporaryDirectory, name: String = "bodies") throws -> String {
        let folder = directory.path + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, body) in bodies.enumerated() { writeFile(folder + String(format: "/%03d.json", index), body) }
        return folder
    }

    /// `check USER ENTITLEMENT --at AT` must answer `state`.
    struct Expectation: Sendable, CustomTestStringConvertible {
        var user: String
        var at: String
        var state: String
        var entitlement = "premium"
        var testDescription: String { "\(user) \(state)" }
    }

    static func expectStates(_ expectations: [Expectation], store: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for item in expectations {
            let check = try Binary.run(["check", item.user, item.entitlement, "--store", store, "--at", item.at, "--json"])
            #expect(check.stdout.contains("\"state\": \"\(item.state)\""),
                    "\(path): \(item.user) at \(item.at): \(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// A vendor's published example that is not JSON as published: refused with the parser's
    /// message by `import` (exit 4), `ingest --from` (exit 2) and the webhook (400); then the
    /// same example with its typo repaired: answered 200 and applied once by the webhook,
    /// applied by `ingest --from`, and refused by `import` by name.
    static func publishedThenRepaired(_ vendor: String, published: String, parserMessage: String, repaired: String,
                                      importRefusal: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(repaired != published, sourceLocation: sourceLocation)
        let directory = TemporaryDirectory()
        let (store, secrets) = setUp(directory)
        let from = try folder([published], in: directory)
        let imported = try Binary.run(["import", from + "/000.json", "--store", store])
        #expect(imported.exitCode == 4 && imported.stderr.contains(parserMessage), "\(imported.stderr)", sourceLocation: sourceLocation)
        let ingest = try Binary.run(["ingest", "--from", from, "--vendor", vendor, "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2 && ingest.stderr.contains("\(vendor): malformed: \(parserMessage)"), "\(ingest.stderr)", sourceLocation: sourceLocation)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        let refused = try server.post(url(vendor), body: published, headers: headers[vendor] ?? [:])
        #expect(refused.status == 400 && refused.body.contains(parserMessage), "\(refused.body)", sourceLocation: sourceLocation)
        let posted = try server.post(url(vendor), body: repaired, headers: headers[vendor] ?? [:])
        #expect(posted.status == 200 && posted.body.contains("\"events\": 1"), "\(posted.body) \(server.cgiLog)", sourceLocation: sourceLocation)
        // The answer promises the event is spooled; the apply after it records it in the ledger.
        #expect(ledgerRecords(store) == 1, "\(server.cgiLog)", sourceLocation: sourceLocation)
        let otherDirectory = TemporaryDirectory()
        let other = setUp(otherDirectory)
        let repairedFolder = try folder([repaired], in: otherDirectory)
        let applied = try Binary.run(["ingest", "--from", repairedFolder, "--store", other.store, "--secrets", other.secrets, "--json"])
        #expect(applied.exitCode == 0 && applied.stdout.contains("\"applied\": 1"), "\(applied.stdout)\(applied.stderr)", sourceLocation: sourceLocation)
        let importedRepaired = try Binary.run(["import", "-", "--store", other.store], stdin: repaired)
        #expect(importedRepaired.exitCode == 2 && importedRepaired.stderr.contains(importRefusal), "\(importedRepaired.stderr)", sourceLocation: sourceLocation)
    }

    /// The records of the store's ledger of applied events (`ingest/events/`).
    static func ledgerRecords(_ store: String) -> Int {
        let enumerator = FileManager.default.enumerator(atPath: store + "/ingest/events")
        var count = 0
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".json") { count += 1 }
        }
        return count
    }

    /// Every body through `ingest --from` (all applied) and through lighttpd (all 200), each
    /// path into its own store, then `expectations` on both; `import` refuses every body by name.
    static func throughEveryPath(_ vendor: String, _ bodies: [String], _ expectations: [Expectation],
                                 importRefusal: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ingestDirectory = TemporaryDirectory()
        let ingestStore = setUp(ingestDirectory)
        let from = try folder(bodies, in: ingestDirectory)
        let ingest = try Binary.run(["ingest", "--from", from, "--store", ingestStore.store, "--secrets", ingestStore.secrets, "--json"])
        #expect(ingest.exitCode == 0, "\(ingest.stdout)\(ingest.stderr)", sourceLocation: sourceLocation)
        #expect(ingest.stdout.contains("\"applied\": \(bodies.count)"), "\(ingest.stdout)", sourceLocation: sourceLocation)
        try expectStates(expectations, store: ingestStore.store, "ingest --from", sourceLocation: sourceLocation)

        let webDirectory = TemporaryDirectory()
        let webStore = setUp(webDirectory)
        let server = try WebServer(directory: webDirectory.path, store: webStore.store, secrets: webStore.secrets)
        defer { server.stop() }
        for body in bodies {
            let posted = try server.post(url(vendor), body: body, headers: headers[vendor] ?? [:])
            #expect(posted.status == 200, "\(posted.body) \(server.cgiLog)", sourceLocation: sourceLocation)
        }
        // A request whose lock did not come within a second waits in the spool: apply it.
        #expect(try Binary.run(["ingest", "--store", webStore.store, "--secrets", webStore.secrets]).exitCode == 0, sourceLocation: sourceLocation)
        try expectStates(expectations, store: webStore.store, "webhook", sourceLocation: sourceLocation)

        for body in bodies {
            let imported = try Binary.run(["import", "-", "--store", webStore.store], stdin: body)
            #expect(imported.exitCode == 2, "\(imported.stderr)", sourceLocation: sourceLocation)
            #expect(imported.stderr.contains(importRefusal), "\(imported.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// A document `import` reads, handed to `ingest --from` (with and without `--vendor`) and
    /// to the webhook: refused by name (ingest exit 2, webhook 400).
    static func documentRefusedAsEvent(_ vendor: String, _ files: [String], name: String, webhookMessage: String,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = setUp(directory)
        let bodies = try files.map { try #require(readFile($0)) }
        let from = try folder(bodies, in: directory)
        let ingest = try Binary.run(["ingest", "--from", from, "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 2, sourceLocation: sourceLocation)
        let named = ingest.stderr.components(separatedBy: "\(name) document, not an event: import it with `entitlement import`").count - 1
        #expect(named == files.count, "\(ingest.stderr)", sourceLocation: sourceLocation)
        // With --vendor the body goes to the vendor's reader, which names the document too.
        let forced = try Binary.run(["ingest", "--from", from, "--vendor", vendor, "--store", store, "--secrets", secrets, "--json"])
        #expect(forced.exitCode == 2 && forced.stdout.contains("\"malformed\": \(files.count)"), "\(forced.stdout)", sourceLocation: sourceLocation)
        let forcedNamed = forced.stderr.components(separatedBy: "malformed: \(name) document, not an event").count - 1
        #expect(forcedNamed == files.count, "\(forced.stderr)", sourceLocation: sourceLocation)
        let server = try WebServer(directory: directory.path, store: store, secrets: secrets)
        defer { server.stop() }
        for body in bodies {
            let posted = try server.post(url(vendor), body: body, headers: headers[vendor] ?? [:])
            #expect(posted.status == 400, "\(posted.body)", sourceLocation: sourceLocation)
            #expect(posted.body.contains(webhookMessage), "\(posted.body)", sourceLocation: sourceLocation)
        }
    }
}
