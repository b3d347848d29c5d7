import Foundation
import Testing
import EntitlementTestSupport

/// `sync`'s fast-forward (the tool's own, `GitFastForward`) brings what arrives into the
/// files, the index and HEAD, and a file whose stat data changed without its content
/// (touched) does not stop it: the checks see the content, not the stat data.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct SyncFastForwardTests {
    /// Two synced stores; then s0 grants ann `sports` and pushes it, which s1 has not fetched.
    static func syncedPair() throws -> TeamFixture {
        let team = try TeamFixture.team(of: 2)
        for customer in ["ann", "bo"] {
            #expect(try team.run(["grant", customer, "premium", "--lifetime"], in: "s0").exitCode == 0)
        }
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "ann", "sports", "--duration", "1w"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        return team
    }

    static func expectCaughtUp(_ team: TeamFixture) throws {
        #expect(try team.run(["check", "ann", "sports", "--quiet"], in: "s1").exitCode == 0)
        #expect(try team.settledStatus(in: "s1").isEmpty)
        #expect(try team.git(["rev-parse", "HEAD"], in: "s1").stdout == team.git(["rev-parse", "HEAD"], in: "s0").stdout)
        #expect(try team.git(["fsck", "--no-progress"], in: "s1").exitCode == 0)
    }

    @Test func whatArrivesIsCheckedOutAndHeadMoves() throws {
        let team = try Self.syncedPair()
        let sync = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        try Self.expectCaughtUp(team)
    }

    @Test func aFileTouchedWithoutAChangeStillSyncs() throws {
        let team = try Self.syncedPair()
        let touched = try #require(try team.git(["ls-files", "profiles"], in: "s1").stdout.split(separator: "\n").map(String.init).first { $0.contains("ann") })
        let path = team.store("s1") + "/" + touched
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: path)
        let sync = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        try Self.expectCaughtUp(team)
    }
}
