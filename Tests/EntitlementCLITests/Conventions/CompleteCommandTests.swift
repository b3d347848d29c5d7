import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `__complete`: candidates from file names alone, through the store's one listing API.
@Suite(.tags(.cli))
struct CompleteCommandTests {
    func store(with ids: [String]) -> (TemporaryDirectory, String) {
        let directory = TemporaryDirectory()
        let root = directory.store()
        let store = EntitlementStore(root: root)
        for id in ids { writeFile(store.profilePath(for: id), "not parsed by completion") }
        return (directory, root)
    }

    @Test func usersMatchingThePrefixWithEscapingReversed() {
        let ids = ["alice@example.com", "alex", "bob", "José Ñ", ".hidden", "a/b", "100%", String(repeating: "z", count: 300)]
        let (directory, root) = store(with: ids)
        _ = directory
        let all = runCLI(["__complete", "users", "", "--store", root])
        #expect(all.exitCode == 0)
        #expect(Set(all.stdout.split(separator: "\n").map(String.init)) == Set(ids.dropLast()), "long ids stored under a hash are not listed")
        #expect(Set(runCLI(["__complete", "users", "al", "--store", root]).stdout.split(separator: "\n")) == ["alice@example.com", "alex"])
        #expect(runCLI(["__complete", "users", "José", "--store", root]).stdout == "José Ñ\n")
        #expect(runCLI(["__complete", "users", ".", "--store", root]).stdout == ".hidden\n")
        #expect(runCLI(["__complete", "users", "a/", "--store", root]).stdout == "a/b\n")
        #expect(runCLI(["__complete", "users", "x", "--store", root]).stdout == "")
    }

    /// Completion output lands on the line being typed: ids with a control character or a
    /// bidirectional-text control are never offered.
    @Test func invisibleControlsAreNeverOffered() {
        let (directory, root) = store(with: ["bidi\u{202E}kcatta", "esc\u{1B}[31m", "del\u{7F}", "plain"])
        _ = directory
        #expect(runCLI(["__complete", "users", "", "--store", root]).stdout == "plain\n")
    }

    @Test func outputIsBounded() throws {
        let (directory, root) = store(with: (0..<(CompleteCommand.limit + 50)).map { "user-\($0)" })
        _ = directory
        #expect(runCLI(["__complete", "users", "user-", "--store", root]).stdout.split(separator: "\n").count == CompleteCommand.limit)
        #expect(try EntitlementStore(root: root).userIDs(withPrefix: "user-1", limit: 5).count == 5)
    }

    @Test func entitlementsComeFromTheConfiguration() {
        #expect(runCLI(["__complete", "entitlements", "", "--store", demoStorePath]).stdout == "premium\nsports\nscience\n")
        #expect(runCLI(["__complete", "entitlements", "s", "--store", demoStorePath]).stdout == "sports\nscience\n")
    }

    @Test func aMissingStoreIsAnErrorOnStandardError() {
        let result = runCLI(["__complete", "users", "", "--store", "/nonexistent/store"])
        #expect(result.exitCode == 4 && result.stdout.isEmpty)
    }

    /// The inverse of the file-name rule, over generated ids: every id not stored under a hash reads back.
    @Test func fileNamesReadBackAsTheIDs() {
        var random = SplitMix64(seed: 0xC0FFEE)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", "-", "_", ".", "@", "+", "%", "/", " ", "~", "é", "日", "👍", "\u{1}", "\\", ":"]
        for _ in 0..<2000 {
            var id = ""
            for _ in 0..<(1 + Int(random.next() % 12)) { id.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            let name = ProfileFileName.name(for: id)
            guard !name.hasPrefix("~") else { continue }
            let decoded = Array(name.utf8).withUnsafeBufferPointer { ProfileFileName.userID(fromName: $0) }
            #expect(decoded == id, "\(id) -> \(name)")
            #expect(ProfileFileName.escapedWithoutHashing(id) == name)
        }
        // Names the rule never writes are not ids.
        for name in ["%61", "a%2", "a%zz", "", ".x", "a b"] {
            #expect(Array(name.utf8).withUnsafeBufferPointer { ProfileFileName.userID(fromName: $0) } == nil, "\(name)")
        }
    }
}
