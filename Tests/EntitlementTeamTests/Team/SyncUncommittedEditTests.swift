import Foundation
import Testing
import EntitlementTestSupport

/// A hand edit not committed is never lost by a sync: sync refuses (exit 4) and the edit is
/// still there, whether or not what arrives changes the same file.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct SyncUncommittedEditTests {
    @Test(arguments: [true, false])
    func aSyncRefusesAndKeepsAnUncommittedEdit(sameFile: Bool) throws {
        let team = try SyncFastForwardTests.syncedPair()
        let edited = try team.git(["ls-files", "profiles"], in: "s1").stdout.split(separator: "\n")
            .map(String.init).first { $0.contains(sameFile ? "ann" : "bo") }
        let path = team.store("s1") + "/" + (try #require(edited))
        let handEdit = try String(contentsOfFile: path, encoding: .utf8) + "\n"
        try Data(handEdit.utf8).write(to: URL(fileURLWithPath: path))
        let sync = try team.run(["sync"], in: "s1")
        #expect(sync.exitCode == 4, "\(sync.stderr)")
        #expect(sync.stderr.contains("uncommitted changes"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == handEdit, "the edit is kept")
        #expect(try team.run(["check", "ann", "sports", "--quiet"], in: "s1").exitCode == 1, "nothing merged")
    }

    /// An edit saved after sync's check, while git's own fast-forward runs (130 new customers
    /// arrive, more than the tool's takes): git refuses before it writes, and the edit is kept
    /// (no `reset --hard` undoes what was never written).
    @Test func anEditGitsMergeRefusesToOverwriteIsKept() throws {
        let team = try SyncFastForwardTests.syncedPair()
        let customers = (0..<130).map { "n\($0)" }.joined(separator: "\n") + "\n"
        #expect(try team.run(["grant", "--stdin", "premium", "--lifetime", "--quiet"], in: "s0", stdin: customers).exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let relative = try #require(try team.git(["ls-files", "profiles"], in: "s1").stdout.split(separator: "\n").map(String.init).first { $0.contains("ann") })
        let editing = try SplitIndexReplacementTests.wrappedGit(team, on: "merge", before: "printf ' ' >> \"$2/\(relative)\"")
        let sync = try team.run(["sync", "--pull-only"], in: "s1", extra: editing)
        #expect(sync.exitCode == 4, "\(sync.stderr)")
        #expect(try String(contentsOfFile: team.store("s1") + "/" + relative, encoding: .utf8).hasSuffix(" "), "the edit is kept")
        #expect(!FileManager.default.fileExists(atPath: team.store("s1") + "/.git/entitlement/sync-in-progress"))
        #expect(try team.run(["check", "ann", "sports", "--quiet"], in: "s1").exitCode == 1, "nothing merged")
    }
}
