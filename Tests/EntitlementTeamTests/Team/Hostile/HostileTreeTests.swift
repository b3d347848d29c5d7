import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// A push may bring only store files, as plain files. Everything else
/// is refused by path before anything is checked out, and the victim's store stays as it was.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct HostileTreeTests {
    /// The issue's reproduction: `index/profile-id` a link to the victim's `~/.ssh`, a key in
    /// `.tmp/k`, and a `.journal` renaming it to `index/profile-id/authorized_keys`.
    @Test func aJournalAndALinkedFolderNeverReachTheWorkingTree() throws {
        let team = try TeamFixture.teamWithAttacker(of: 1)
        let ssh = team.directory.path + "/home/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let head = try team.head("s0")
        try team.attackerPushes("innocent") {
            try FileManager.default.removeItem(atPath: team.store(TeamFixture.attacker) + "/index/profile-id")
            try team.symlink("index/profile-id", to: ssh, in: TeamFixture.attacker)
            try team.write(".tmp/k", "ssh-ed25519 AAAA attacker\n", in: TeamFixture.attacker)
            try team.write(".journal", #"{"schema_version": 1, "renames": [{"from": ".tmp/k", "to": "index/profile-id/authorized_keys"}]}"#, in: TeamFixture.attacker)
        }
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4)
        for path in ["index/profile-id is a symbolic link", ".journal", ".tmp/k"] { #expect(sync.stderr.contains(path), "\(sync.stderr)") }
        #expect(sync.stderr.contains("Nothing was checked out"))
        #expect(try team.head("s0") == head)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.journal"))
        #expect(team.isRealDirectory(team.store("s0") + "/index/profile-id"))
        #expect(try team.run(["grant", "bob", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: ssh + "/authorized_keys"))
    }

    /// The same trick without the link: a journal that would swap a customer's profile.
    @Test func aPushedJournalOrStagedFileIsRefusedByPath() throws {
        let team = try TeamFixture.teamWithAttacker(of: 1)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let profile = try team.profilePath("alice", in: "s0")
        try team.attackerPushes("swap") {
            try team.write(".tmp/p", #"{"customer_user_id": "alice", "schema_version": 1}"#, in: TeamFixture.attacker)
            try team.write(".journal", #"{"schema_version": 1, "renames": [{"from": ".tmp/p", "to": "\#(profile)"}]}"#, in: TeamFixture.attacker)
            try team.write("notes.txt", "hello\n", in: TeamFixture.attacker)
        }
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4)
        #expect(sync.stderr.contains(".journal is the writer's own file"))
        #expect(sync.stderr.contains("notes.txt is not a store file"))
        #expect(try team.run(["check", "alice", "premium", "--quiet"], in: "s0").exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.tmp/p"))
    }

    /// A linked fan-out folder, a gitlink in place of a profile, a committed `.lock` link.
    @Test func linksGitlinksAndALockLinkAreRefusedAndTheFixArrives() throws {
        let team = try TeamFixture.teamWithAttacker(of: 1)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let profile = try team.profilePath("alice", in: "s0")
        let fanout = (profile as NSString).deletingLastPathComponent
        let outside = team.directory.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try team.attackerPushes("links") {
            try FileManager.default.removeItem(atPath: team.store(TeamFixture.attacker) + "/" + fanout)
            try team.symlink(fanout, to: outside, in: TeamFixture.attacker)
            try team.symlink(".lock", to: "/dev/null", in: TeamFixture.attacker)
        }
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4)
        #expect(sync.stderr.contains("\(fanout) is a symbolic link"), "\(sync.stderr)")
        #expect(sync.stderr.contains(".lock is a symbolic link"))
        #expect(try team.run(["check", "alice", "premium", "--quiet"], in: "s0").exitCode == 0)
        // The attacker's links are undone upstream; that fix arrives (no link ever blocked the store).
        try #require(try team.git(["revert", "--no-edit", "HEAD"], in: TeamFixture.attacker).exitCode == 0)
        try #require(try team.git(["push", "--quiet", "origin", "HEAD:main"], in: TeamFixture.attacker).exitCode == 0)
        let fixed = try team.run(["sync"], in: "s0")
        #expect(fixed.exitCode == 0, "\(fixed.stderr)")
        let gitlinkPath = (fanout as NSString).appendingPathComponent("bob.json")
        try team.attackerPushes("gitlink", stageAll: false) {
            let head = try team.head(TeamFixture.attacker)
            try #require(try team.git(["update-index", "--add", "--cacheinfo", "160000,\(head),\(gitlinkPath)"], in: TeamFixture.attacker).exitCode == 0)
        }
        let gitlink = try team.run(["sync"], in: "s0")
        #expect(gitlink.exitCode == 4)
        #expect(gitlink.stderr.contains("\(gitlinkPath) is a gitlink"), "\(gitlink.stderr)")
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/" + gitlinkPath))
    }
}
