import Foundation
import Testing
import EntitlementTestSupport

/// Git's index is current after every tool command, so `git status` right
/// after it prints nothing, without any hook or refresh run first.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct GitHygieneTests {
    @Test func gitStatusIsCleanRightAfterEveryCommand() throws {
        let team = try TeamFixture.team(of: 2)
        let commands: [(String, [String], String?)] = [
            ("s0", ["grant", "alice", "premium", "--duration", "1m"], nil),
            ("s0", ["grant", "--stdin", "premium", "--lifetime", "--quiet"], "ann\nbo\n"),
            ("s0", ["revoke", "bo", "premium", "--yes", "--reason", "oops"], nil),
            ("s0", ["restore", "bo", "premium", "--reason", "undo"], nil),
            ("s0", ["import", "-"], revenueCatDocument(user: "carol", transactionID: "T-1")),
            ("s0", ["sync"], nil),
            ("s1", ["grant", "dave", "premium", "--lifetime"], nil),
            ("s1", ["sync"], nil),
            ("s0", ["grant", "erin", "premium", "--lifetime"], nil),
            ("s0", ["sync"], nil),
            ("s0", ["migrate", "--layout", "flat"], nil),
        ]
        for (store, arguments, input) in commands {
            let result = try team.run(arguments, in: store, stdin: input)
            #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
            let status = try team.git(["status", "--porcelain", "--untracked-files=all"], in: store)
            #expect(status.stdout.isEmpty, "after \(arguments.prefix(2)): \(status.stdout)")
        }
    }
}
