import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Every command over the corpus in Tests/BadInput (see its README), end to end and
/// bounded in time: a clear message, a documented exit code, no crash, no hang, and the
/// store unchanged.
@Suite(.tags(.endToEnd), .serialized)
struct BadInputCorpusTests {
    static let corpus = repositoryRoot + "/Tests/BadInput"
    static let at = "2026-01-15T12:00:00Z"
    let directory = TemporaryDirectory()

    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(Self.corpus)/\(folder)")) ?? []).sorted()
    }

    /// A store with one profile (alice) and its index entry.
    func store(_ name: String) -> String {
        let root = directory.path + "/" + name
        #expect(runCLI(["init", "--store", root]).exitCode == 0)
        #expect(runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", root]).exitCode == 0)
        return root
    }

    /// Every file's bytes (the lock file, which only exists to be locked, aside).
    func snapshot(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: root) ?? [] where path != ".lock" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = FileManager.default.contents(atPath: root + "/" + path)
            }
        }
        return result
    }

    /// Runs one command and checks what every run must satisfy; returns its result.
    @discardableResult
    func expectSound(_ arguments: [String], stdin: Data = Data(), store root: String, allowChange: Bool = false,
                     _ label: String) throws -> BoundedResult {
        let before = snapshot(root)
        let result = try BoundedRun.run(arguments, stdin: stdin, seconds: 20)
        #expect(!result.timedOut, "\(label): hung")
        #expect(!result.signalled, "\(label): crashed (signal \(result.exitCode))")
        #expect((0...5).contains(result.exitCode), "\(label): undocumented exit \(result.exitCode)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("EntitlementCore."), "\(label): \(result.stderr.prefix(300))")
        if result.exitCode >= 2, arguments.contains("--stdin") {
            // check --stdin answers each line in JSON Lines; a bad line carries its message in "error".
            #expect(result.stdout.contains("\"error\":") || result.stderr.hasPrefix("Error: ") || result.stderr.hasPrefix("{\"error\":"), "\(label): no message for exit \(result.exitCode)")
        } else if result.exitCode >= 2 {
            // Under --json, errors are JSON objects (docs/json-output.md, "Errors").
            #expect(result.stderr.hasPrefix("Error: ") || result.stderr.contains("\nError: ") || result.stderr.hasPrefix("warning: ")
                    || result.stderr.hasPrefix("{\"error\":") || result.stderr.contains("\n{\"error\":"),
                    "\(label): exit \(result.exitCode), no clear message: \(result.stderr.prefix(300))")
        }
        if !allowChange || result.exitCode != 0 { #expect(snapshot(root) == before, "\(label): store changed") }
        for output in [result.stdout, result.stderr] {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\u{202e}" || $0 == "\u{2028}" }, "\(label): raw control character printed")
        }
        return result
    }

    @Test func importDocuments() throws {
        guard Binary.exists else { return }
        let root = store("documents")
        for name in files("documents") {
            let path = "\(Self.corpus)/documents/\(name)"
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try expectSound(["import", path, "--dry-run", "--json", "--at", Self.at, "--store", root], store: root, "import --dry-run \(name)")
            try expectSound(["import", "-", "--at", Self.at, "--store", root], stdin: bytes, store: root, allowChange: true, "import - <\(name)")
            try expectSound(["check", "--stdin", "--store", root, "--at", Self.at], stdin: bytes, store: root, "check --stdin <\(name)")
            // Whatever an import accepted must read back.
            let status = try BoundedRun.run(["status", "alice", "--store", root])
            #expect(status.exitCode == 0, "after \(name): \(status.stderr)")
        }
    }

    @Test func storeFiles() throws {
        guard Binary.exists else { return }
        for name in files("store-files") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(Self.corpus)/store-files/\(name)"))
            for place in ["profiles/alice.json", "config.json", "index"] {
                let root = store("\(name)-\(place.replacingOccurrences(of: "/", with: "_"))")
                let profileID = try EntitlementStore(root: root).loadProfile(userID: "alice")!.profileID!
                let target = place == "index" ? "index/profile-id/\(ProfileFileName.name(for: profileID))" : place
                try bytes.write(to: URL(fileURLWithPath: "\(root)/\(target)"))
                let commands: [[String]] = [
                    ["status", "alice", "--at", Self.at], ["check", "alice", "premium", "--at", Self.at], ["history", "alice", "--json"],
                    ["grant", "alice", "premium", "--duration", "7d"], ["revoke", "alice", "premium"], ["status", "--profile-id", profileID],
                ]
                for command in commands {
                    let label = "\(command.joined(separator: " ")) with \(name) as \(place)"
                    let result = try expectSound(command + ["--store", root], store: root, allowChange: place == "index", label)
                    if place != "index" {
                        #expect(result.exitCode == 4, "\(label): \(result.stderr)")
                        #expect(result.stderr.contains(target), "\(label): the message must name the file")
                    }
                }
            }
        }
    }

    @Test func arguments() throws {
        guard Binary.exists else { return }
        let root = store("arguments")
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.corpus)/arguments.json"))
        guard case .array(let values) = try JSONParser.parse(Array(data)) else { Issue.record("arguments.json is not an array"); return }
        for case .string(let value) in values {
            let commands: [[String]] = [
                ["status", value], ["check", value, "premium"], ["history", value], ["grant", value, "premium", "--duration", "7d", "--dry-run"],
                ["revoke", value, "premium", "--dry-run"], ["grant", "alice", "premium", "--duration", value, "--dry-run"],
                ["status", "alice", "--at", value], ["check", "alice", value],
            ]
            for command in commands {
                try expectSound(command + ["--store", root], store: root, "\(command.joined(separator: " ").debugDescription)")
            }
        }
    }
}
