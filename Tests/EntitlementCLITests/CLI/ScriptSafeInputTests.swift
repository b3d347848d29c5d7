import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Input from scripts: bytes that are not text, hidden characters, empty batches, stray
/// arguments, and one exit-code rule for answers about many items.
@Suite(.tags(.cli))
struct ScriptSafeInputTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [[0xFF, 0xFE], [0x80, 0x81], [0x61, 0xC3]] as [[UInt8]])
    func argumentsThatAreNotUTF8AreRefusedNeverRepaired(id: [UInt8]) throws {
        let store = directory.copyOfDemoStore()
        for command in [["check"], ["grant"], ["status"], ["path"]] {
            let raw = command.map { Array($0.utf8) } + [id] + (command == ["grant"] ? ["premium", "--lifetime"] : []).map { Array($0.utf8) }
                + [Array("--store".utf8), Array(store.utf8)]
            let result = runCLI(rawArguments: raw)
            #expect(result.exitCode == 2, "\(command)")
            #expect(result.stderr.hasPrefix("Error: argument 2 is not valid UTF-8: '"), "\(result.stderr)")
            #expect(!result.stderr.contains("\u{FFFD}"))
        }
        let profiles = try FileManager.default.contentsOfDirectory(atPath: demoStorePath + "/profiles").count
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/profiles").count == profiles, "no profile was created")
        #expect(runCLI(rawArguments: [Array("check".utf8), Array("lifetime".utf8), Array("--store".utf8), Array(store.utf8), Array("--at".utf8),
                                      Array("2026-01-15".utf8)]).exitCode == 0, "valid UTF-8 runs as before")
    }

    @Test(arguments: ["new\u{1B}[31m", "tab\there", "line\nbreak", "bidi\u{202E}txt", "isolate\u{2066}x", "del\u{7F}"])
    func grantAndImportRefuseNewIDsWithControlCharacters(id: String) throws {
        let store = directory.store()
        let grant = runCLI(["grant", id, "premium", "--duration", "1d", "--store", store])
        #expect(grant.exitCode == 2)
        #expect(grant.stderr.hasPrefix("Error: the user id '\(Terminal.escape(id))' contains a control character"))
        let imported = runCLI(["import", ImportTests.fixtures + "/revenuecat/subscriber-active.json", "--user", id, "--store", store])
        #expect(imported.exitCode == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/profiles").isEmpty)
    }

    @Test func existingProfilesWithControlCharactersStayReadableAndGrantable() throws {
        let store = directory.store()
        let id = "legacy\u{1B}id"
        let path = EntitlementStore(root: store).profilePath(for: id)
        writeFile(path, #"{"schema_version": 1, "customer_user_id": "legacy\u001bid", "profile_id": "p-1", "created_at": "2025-01-01T00:00:00Z", "transactions": []}"#)
        #expect(runCLI(["status", id, "--store", store]).exitCode == 0)
        let grant = runCLI(["grant", id, "premium", "--duration", "1d", "--store", store])
        #expect(grant.exitCode == 0, "\(grant.stderr)")
        #expect(runCLI(["check", id, "--store", store, "-q"]).exitCode == 0)
    }

    @Test func importRefusesADocumentIDTheCommandLineWouldRefuse() throws {
        let store = ImportTests.Store()
        let long = String(repeating: "x", count: 10_000)
        let fixture = try #require(readFile(ImportTests.fixtures + "/revenuecat/subscriber-active.json"))
        let document = fixture.replacingOccurrences(of: "rc-active@example.com", with: long)
        let result = store.importing(["-", "--at", ImportTests.documentTimeText], stdin: document)
        #expect(result.exitCode == 2, "a refused user id, as grant: \(result.stderr)")
        #expect(result.stderr.contains("the user id is longer than 4096 bytes"))
        #expect(!result.stderr.contains("documented format"))
        #expect(store.profileNames().isEmpty)
        // A control character: named once, escaped once (grant's message), exit 2.
        let escaped = fixture.replacingOccurrences(of: "rc-active@example.com", with: #"rc\u001b[31m"#)
        let refused = store.importing(["-", "--at", ImportTests.documentTimeText], stdin: escaped)
        #expect(refused.exitCode == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains(#"the user id 'rc\u{1b}[31m' contains a control character"#), "\(refused.stderr)")
        #expect(!refused.stderr.contains(#"\\u{1b}"#), "escaped once")
        #expect(!refused.stderr.contains("\u{1B}"))
        #expect(store.profileNames().isEmpty)
    }

    @Test func emptyBatchInputIsNotEntitled() {
        for input in ["", "\n", "\n\r\n\n"] {
            let result = runCLI(["check", "--stdin", "--store", demoStorePath], stdin: input)
            #expect(result.exitCode == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "Note: no user ids on standard input; nothing was checked.\n")
        }
        #expect(runCLI(["check", "--stdin", "--store", demoStorePath, "-q"], stdin: "").stderr.isEmpty)
    }

    @Test func unknownEntitlementInABatchIsNotedOnceAndStrictIsNotFound() {
        let input = "lifetime\ntrial\nexpired\n"
        let plain = runCLI(["check", "--stdin", "premum", "--store", demoStorePath], stdin: input)
        #expect(plain.exitCode == 1)
        #expect(plain.stderr == "Note: entitlement 'premum' is not in the product configuration. Did you mean 'premium'?\n")
        #expect(plain.stdout.split(separator: "\n").count == 3)
        let single = runCLI(["check", "lifetime", "premum", "--store", demoStorePath])
        #expect(single.stderr == plain.stderr, "the same note as the single check")
        let strict = runCLI(["check", "--stdin", "premum", "--strict", "--store", demoStorePath], stdin: input)
        #expect(strict.exitCode == 3)
        #expect(strict.stdout.isEmpty)
        #expect(strict.stderr.contains("Did you mean 'premium'?"))
    }

    @Test func unknownEntitlementIsExitThreeWhereverItIsNamed() {
        let store = directory.copyOfDemoStore()
        for arguments in [["grant", "u", "premum", "--lifetime"], ["revoke", "lifetime", "premum"], ["history", "lifetime", "--entitlement", "premum"],
                          ["check", "lifetime", "premum", "--strict"]] {
            let result = runCLI(arguments + ["--store", store])
            #expect(result.exitCode == 3, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: entitlement 'premum' is not in the product configuration\nDid you mean 'premium'?"), "\(arguments)")
        }
        #expect(runCLI(["check", "lifetime", "premum", "--store", store]).exitCode == 1, "plain check still answers no")
    }

    @Test func theWorstCodeWinsForBatchAndImport() throws {
        let store = directory.copyOfDemoStore()
        writeFile(store + "/profiles/broken.json", "{ not json")
        // entitled (0), not entitled (1), refused id (2), unreadable profile (4): 4 wins, in any order.
        let lines = ["lifetime", "expired", String(repeating: "x", count: 5000), "broken"]
        for order in [lines, lines.reversed()] {
            let result = runCLI(["check", "--stdin", "--store", store], stdin: order.joined(separator: "\n"))
            #expect(result.exitCode == 4)
        }
        #expect(runCLI(["check", "--stdin", "--store", store], stdin: "lifetime\n" + String(repeating: "x", count: 5000)).exitCode == 2)
        let imports = ImportTests.Store()
        let files = [ImportTests.fixtures + "/missing.json", ImportTests.fixtures + "/revenuecat/invalid-wrong-type.json"]
        #expect(imports.importing(files + ["--at", ImportTests.documentTimeText]).exitCode == 4, "usage (2) then data (4): 4")
        #expect(imports.importing(files.reversed() + ["--at", ImportTests.documentTimeText]).exitCode == 4)
    }

    @Test func replayOfARevokedGrantSaysSoAndStillSucceeds() throws {
        let store = directory.copyOfDemoStore()
        let grant = ["grant", "replayed", "premium", "--duration", "1m", "--idempotency-key", "K-9", "--store", store]
        #expect(runCLI(grant).exitCode == 0)
        #expect(runCLI(["revoke", "replayed", "premium", "--actor", "sam", "--reason", "abuse", "--yes", "--store", store]).exitCode == 0)
        let replay = runCLI(grant)
        #expect(replay.exitCode == 0)
        #expect(replay.stderr.contains("was revoked at 2026-01-15T12:00:00Z by sam (abuse); this replay did not restore it."))
        let other = ["grant", "other", "premium", "--duration", "1m", "--idempotency-key", "K-9", "--store", store]
        #expect(runCLI(other).exitCode == 0)
        #expect(runCLI(other).stderr.isEmpty, "a replay of a grant still in force says nothing")
    }
}
