import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// What a push (deletions included) can make a merge do.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct HostileMergeTests {
    /// A pushed `profiles/** merge=union` would make a merge write duplicate keys.
    @Test func aPushedGitattributesCannotSwitchTheDriverOff() throws {
        let team = try TeamFixture.teamWithAttacker(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        // s0 stands for a clone made by an older version: its private attributes are missing.
        try FileManager.default.removeItem(atPath: team.store("s0") + "/.git/info/attributes")
        try team.attackerPushes("attributes", stageAll: false) {
            try team.write(".gitattributes", "profiles/** merge=union\n* working-tree-encoding=UTF-16LE\n", in: TeamFixture.attacker)
            // Staged as raw bytes: the file's own encoding attribute would make `git add` refuse it.
            let blob = try team.git(["hash-object", "-w", "--no-filters", ".gitattributes"], in: TeamFixture.attacker).stdout
            let entry = "100644,\(blob.trimmingCharacters(in: .whitespacesAndNewlines)),.gitattributes"
            try #require(try team.git(["update-index", "--add", "--cacheinfo", entry], in: TeamFixture.attacker).exitCode == 0)
        }
        #expect(try team.run(["grant", "alice", "sports", "--duration", "1m", "--reason", "s1"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1w", "--reason", "s0"], in: "s0").exitCode == 0)
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.run(["verify"], in: "s0").exitCode == 0)
        #expect(try team.run(["check", "alice", "sports", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["verify"], in: "s1").exitCode == 0)
        #expect(try team.settledStatus(in: "s0").isEmpty)
    }

    /// A merge whose result the tool cannot read is never committed nor pushed.
    @Test func aMergedResultThatFailsTheCheckIsNeverCommitted() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "alice", "sports", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1w"], in: "s0").exitCode == 0)
        // A driver that writes something no reader accepts and says it succeeded.
        let driver = team.directory.path + "/bad-driver"
        try Data("#!/bin/sh\nprintf '{\"broken' > \"$3\"\nexit 0\n".utf8).write(to: URL(fileURLWithPath: driver))
        chmod(driver, 0o700)
        let head = try team.head("s0")
        let remote = try Binary.runProgram("/usr/bin/env", ["git", "-C", team.remote, "rev-parse", "main"], environment: team.environment).stdout
        let sync = try team.run(["sync"], in: "s0", extra: ["ENTITLEMENT_EXECUTABLE": driver])
        #expect(sync.exitCode == 4)
        #expect(sync.stderr.contains("nothing was committed or pushed"), "\(sync.stderr)")
        #expect(try team.head("s0") == head)
        #expect(try Binary.runProgram("/usr/bin/env", ["git", "-C", team.remote, "rev-parse", "main"], environment: team.environment).stdout == remote)
        #expect(try team.git(["status", "--porcelain", "--untracked-files=all"], in: "s0").stdout.isEmpty)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0, "the real driver merges it")
    }

    /// The docs' own config.json example (no `profile_layout`) would orphan every customer.
    @Test func aLayoutChangeThatLeavesTheFilesIsRefused() throws {
        let team = try TeamFixture.teamWithAttacker(of: 1)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        try team.attackerPushes("simplify config") {
            let path = team.store(TeamFixture.attacker) + "/config.json"
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: ",\n  \"profile_layout\": \"fanout\"", with: "")
            try team.write("config.json", text, in: TeamFixture.attacker)
        }
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4)
        #expect(sync.stderr.contains("changes profile_layout from fanout to flat but leaves the profiles where they were"), "\(sync.stderr)")
        #expect(try team.run(["check", "alice", "premium", "--quiet"], in: "s0").exitCode == 0)
    }

    /// A push that deletes every profile needs `--allow-deletions`, and is reported.
    @Test func massDeletionsNeedAllowDeletionsAndAreReported() throws {
        let team = try TeamFixture.teamWithAttacker(of: 1)
        #expect(try team.run(["grant", "--stdin", "premium", "--lifetime", "--quiet"], in: "s0", stdin: "a\nb\nc\n").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        try team.attackerPushes("clean up") {
            try FileManager.default.removeItem(atPath: team.store(TeamFixture.attacker) + "/profiles")
        }
        let refused = try team.run(["sync"], in: "s0")
        #expect(refused.exitCode == 4)
        #expect(refused.stderr.contains("removes 3 customer profiles"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-deletions"))
        #expect(try team.run(["check", "a", "--quiet"], in: "s0").exitCode == 0)
        let allowed = try team.run(["sync", "--allow-deletions", "--json"], in: "s0")
        #expect(allowed.exitCode == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("\"removed_profiles\": ["))
        #expect(allowed.stdout.contains("a.json"))
    }

    /// Plain `git pull` merges divergent branches out of the box, through the driver.
    /// Sync's merge commit is authored by the actor.
    @Test func plainGitPullMergesAndSyncsMergeIsTheActors() throws {
        let team = try TeamFixture.team(of: 3)
        for (store, user) in [("s0", "a"), ("s1", "b"), ("s2", "c")] {
            #expect(try team.run(["grant", user, "premium", "--lifetime"], in: store).exitCode == 0)
        }
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let pull = try team.git(["pull", "--quiet", "--no-edit"], in: "s0")
        #expect(pull.exitCode == 0, "\(pull.stderr)")
        #expect(try team.run(["check", "b", "--quiet"], in: "s0").exitCode == 0)
        let sync = try team.run(["sync", "--actor", "Dana <dana@example.com>"], in: "s2")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.git(["log", "-1", "--format=%an <%ae>|%P"], in: "s2").stdout.hasPrefix("Dana <dana@example.com>|"))
        #expect(try team.git(["log", "-1", "--format=%P"], in: "s2").stdout.split(separator: " ").count == 2, "a merge commit")
        #expect(try team.run(["grant", "d", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "e", "premium", "--lifetime"], in: "s2").exitCode == 0)
        #expect(try team.run(["sync"], in: "s2", extra: ["ENTITLEMENT_ACTOR": "Eve <eve@example.com>"]).exitCode == 0)
        #expect(try team.git(["log", "-1", "--format=%an <%ae>"], in: "s2").stdout == "Eve <eve@example.com>\n")
    }
}
