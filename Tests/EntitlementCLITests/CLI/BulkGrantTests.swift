import Foundation
import Testing
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `grant --stdin`: many customers under one lock.
@Suite(.tags(.cli))
struct BulkGrantTests {
    func grant(_ store: String, _ input: String, _ extra: [String] = []) -> CLIResult {
        runCLI(["grant", "--stdin", "premium", "--duration", "7d", "--reason", "Outage INC-42", "--store", store] + extra, stdin: input, ids: IDSequence())
    }

    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func grantsEveryValidLineAndReportsBadOnesByNumber() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let result = grant(store, "alice\nbob\n\nalice\n bad\nmanual-active\r\n", ["--json"])
        #expect(result.exitCode == 2, "a bad line is a usage error, after the others applied")
        // A refused line is reported as it is read, before the grants.
        let printed = try lines(result.stdout)
        #expect(printed.map { $0["line"] as? Int } == [5, 1, 2, 4, 6])
        let results = printed.sorted { ($0["line"] as? Int ?? 0) < ($1["line"] as? Int ?? 0) }
        #expect(results.map { $0["result"] as? String } == ["granted", "granted", "duplicate", "failed", "granted"])
        #expect(results[2]["duplicate_of_line"] as? Int == 1)
        let error = results[3]["error"] as? [String: Any]
        #expect((error?["message"] as? String)?.contains("line 5: the user id starts or ends with white space") == true)
        #expect(error?["exit_code"] as? Int == 2 && error?["code"] is String && error?.keys.contains("hint") == true)
        #expect(results[3]["exit_code"] == nil, "the exit code is inside the shared error object")
        // Keys sorted at every depth, like all JSON output.
        for line in result.stdout.split(separator: "\n") {
            #expect(line.hasPrefix(#"{"access_level":"#) || line.hasPrefix(#"{"customer_user_id":"#) || line.hasPrefix(#"{"changed":"#), "\(line)")
        }
        #expect(result.stdout.contains(#"{"code":"#))
        #expect((results[4]["access_level"] as? [String: Any])?["expires_at"] as? String == "2026-02-17T08:00:00Z", "chained after the active grant")
        #expect(results[0]["transaction_id"] as? String == "manual-id-1")
        #expect(FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func rerunWithTheSameKeyChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let key = ["--idempotency-key", "INC-42"]
        #expect(runCLI(["grant", "--stdin", "premium", "--duration", "7d", "--store", store] + key, stdin: "alice\nbob\n",
                       ids: IDSequence(prefix: "first-")).exitCode == 0)
        let before = readFile(store + "/profiles/alice.json")
        let again = grant(store, "alice\nbob\ncarol\n", key + ["--json"])
        #expect(again.exitCode == 0)
        #expect(try lines(again.stdout).map { $0["result"] as? String } == ["unchanged", "unchanged", "granted"])
        #expect(readFile(store + "/profiles/alice.json") == before)
    }

    @Test func allOrNothingWritesNothingWhenALineIsBad() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let result = grant(store, "alice\n\u{1}x\nbob\n", ["--all-or-nothing"])
        #expect(result.exitCode == 2)
        #expect(result.stdout.hasPrefix("Nothing written (--all-or-nothing): 1 of 3 lines failed."))
        #expect(result.stdout.contains("line 2: '\\u{1}x': the user id contains a control character"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/bob.json"))
    }

    @Test func allOrNothingWritesNothingWhenAGrantFails() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        writeFile(store + "/profiles/broken.json", "{")
        let result = grant(store, "alice\nbroken\n", ["--all-or-nothing", "--json"])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains("\"line\":2"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
        let partial = grant(store, "alice\nbroken\n")
        #expect(partial.exitCode == 4)
        #expect(FileManager.default.fileExists(atPath: store + "/profiles/alice.json"), "without --all-or-nothing the others apply")
    }

    @Test func dryRunWritesNothing() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let result = grant(store, "alice\nbob\n", ["--dry-run"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("Dry run: would grant premium to 2 customers."))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
    }

    @Test func usage() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        #expect(runCLI(["grant", "--stdin", "alice", "premium", "--lifetime", "--store", store]).exitCode == 2)
        #expect(runCLI(["grant", "alice", "premium", "--lifetime", "--all-or-nothing", "--store", store]).exitCode == 2)
        #expect(runCLI(["grant", "--stdin", "premum", "--lifetime", "--store", store], stdin: "a\n").exitCode == 3)
    }

    @Test func manyIdsAreCommittedInBatches() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let ids = (1...2500).map { "user-\($0)" }
        let result = grant(store, ids.joined(separator: "\n") + "\n")
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("Granted premium to 2500 customers."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/profiles").count == 2500)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/index/profile-id").count == 2500)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    /// A new customer's index entry is written with its profile; an existing customer's,
    /// written when its profile id was set, is neither read nor rewritten.
    @Test func indexEntriesAreWrittenForNewProfilesOnly() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        #expect(grant(store, "old-1\nold-2\n").exitCode == 0)
        let index = store + "/index/profile-id"
        let entries = try FileManager.default.contentsOfDirectory(atPath: index)
        #expect(entries.count == 2)
        // An entry lost outside the tool: the bulk grant of an existing customer leaves it missing
        // (lookups by profile id then scan), while a new customer's is written.
        try FileManager.default.removeItem(atPath: index + "/" + entries[0])
        let before = try FileManager.default.attributesOfItem(atPath: index + "/" + entries[1])[.modificationDate] as? Date
        let result = runCLI(["grant", "--stdin", "premium", "--duration", "7d", "--reason", "Second outage", "--store", store],
                            stdin: "old-1\nold-2\nnew-1\n", ids: IDSequence(prefix: "second-"))
        #expect(result.exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: index).count == 2)
        #expect(try FileManager.default.attributesOfItem(atPath: index + "/" + entries[1])[.modificationDate] as? Date == before)
        let profileID = try #require(try String(contentsOfFile: store + "/profiles/new-1.json", encoding: .utf8)
            .split(separator: "\"").drop { $0 != "profile_id" }.dropFirst(2).first)
        #expect(runCLI(["status", "--profile-id", String(profileID), "--store", store, "--json"]).stdout.contains("\"new-1\""))
    }

    @Test func inputLinesAreParsedWithTheirNumbers() {
        let lines = BulkGrantInput.parse(Array("a\n\n  \nb\r\na\n\u{7F}\n".utf8) + [0xFF, 0x0A])
        #expect(lines.map(\.number) == [1, 4, 5, 6, 7])
        #expect(lines.map(\.userID) == ["a", "b", "a", nil, nil])
        #expect(lines[2].duplicateOf == 1)
        #expect(lines[3].problem == "the user id contains a control character")
        #expect(lines[4].problem == "the user id is not valid UTF-8")
    }

    @Test func noIDsExitsOneWithANote() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        for input in ["", "\n\n"] {
            let result = grant(store, input, [])
            #expect(result.exitCode == 1)
            #expect(result.stderr.contains("no user ids on standard input"))
            #expect(result.stdout.isEmpty)
        }
    }
}
