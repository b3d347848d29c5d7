import Foundation
import Testing
import EntitlementTestSupport

/// A `.git/refs/remotes/origin/main.lock` that a git process killed outside the tool left: an
/// old one (older than the lock timeout, no git running in the store) is removed and `sync`
/// goes on; a fresh one (a git working now) stops `sync` with the file and the fix named.
/// Real git, a bare remote; file times are fixed dates, never the wall clock's.
@Suite(.tags(.endToEnd), .timeLimit(.minutes(5)), .enabled(if: Binary.exists, "needs the built binary"))
struct StaleRefLockTests {
    static func lock(_ team: TeamFixture, at date: Date) throws -> String {
        let path = team.store("s1") + "/.git/refs/remotes/origin/main.lock"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        writeFile(path, "")
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
        return path
    }

    @Test func anOldRemoteRefLockIsRecoveredAFreshOneNamed() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let old = try Self.lock(team, at: Date(timeIntervalSince1970: 0))
        let recovered = try team.run(["sync"], in: "s1")
        #expect(recovered.exitCode == 0, "\(recovered.stderr)")
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(try team.run(["check", "alice", "premium", "--quiet"], in: "s1").exitCode == 0)

        #expect(try team.run(["grant", "bob", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let fresh = try Self.lock(team, at: Date(timeIntervalSince1970: 4_102_444_800))  // 2100: never older than the timeout
        let jammed = try team.run(["sync"], in: "s1")
        #expect(jammed.exitCode == 4, "\(jammed.stderr)")
        #expect(jammed.stderr.contains("refs/remotes/origin/main.lock") && jammed.stderr.contains("rm '"), "\(jammed.stderr)")
        #expect(FileManager.default.fileExists(atPath: fresh), "a lock that may be live is never removed")
    }
}
