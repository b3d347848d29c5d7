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
}
