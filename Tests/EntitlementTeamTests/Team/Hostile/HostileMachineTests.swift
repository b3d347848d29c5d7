import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// The tool's git is private and goes only where the store is,
/// whatever the caller's umask and environment.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct HostileMachineTests {
    /// `(umask 000; entitlement clone …)` is 0700/0600, `.git` and its hooks included.
    @Test func aCloneUnderALooseUmaskIsPrivate() throws {
        let team = try TeamFixture.team(of: 1)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let clone = try team.runUnderUmask("000", ["clone", team.remote, "--store", team.store("c")])
        #expect(clone.exitCode == 0, "\(clone.stderr)")
        let root = team.store("c")
        let profile = try team.profilePath("alice", in: "c")
        for (path, mode) in [("", 0o700), ("/.git", 0o700), ("/.git/hooks", 0o700), ("/.git/config", 0o600), ("/config.json", 0o600),
                             ("/profiles", 0o700), ("/" + profile, 0o600), ("/.git/info/attributes", 0o600)] {
            let actual = try team.mode(root + path)
            #expect(actual == mode, "\(path): 0\(String(actual, radix: 8))")
        }
        let hooks = try FileManager.default.contentsOfDirectory(atPath: root + "/.git/hooks")
        for hook in hooks { #expect(try team.mode(root + "/.git/hooks/" + hook) & 0o077 == 0, "\(hook)") }
        #expect(try team.git(["config", "core.sharedRepository"], in: "c").stdout == "0600\n")
    }

    /// Profiles that arrive through `sync`, and through a plain `git pull` under umask 022,
    /// are 0600 in 0700 folders.
    @Test func filesThatArriveAreOwnerOnly() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.runUnderUmask("000", ["sync", "--store", team.store("s0")]).exitCode == 0)
        let alice = try team.profilePath("alice", in: "s0")
        #expect(try team.mode(team.store("s0") + "/" + alice) == 0o600)
        #expect(try team.mode(team.store("s0") + "/" + (alice as NSString).deletingLastPathComponent) == 0o700)
        #expect(try team.run(["grant", "bob", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let pull = try Binary.runProgram("/bin/sh", ["-c", "umask 022; exec git -C \"$0\" pull --quiet --no-edit", team.store("s0")], environment: team.environment)
        #expect(pull.exitCode == 0, "\(pull.stderr)")
        let bob = try team.profilePath("bob", in: "s0")
        #expect(try team.mode(team.store("s0") + "/" + bob) == 0o600)
        #expect(try team.mode(team.store("s0") + "/" + (bob as NSString).deletingLastPathComponent) == 0o700)
    }

    /// The caller's GIT_* variables never redirect the tool's git.
    @Test func theCallersGitEnvironmentIsIgnored() throws {
        let team = try TeamFixture.team(of: 1)
        let elsewhere = team.directory.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        for variable in ["GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR", "GIT_DIR", "GIT_INDEX_FILE", "GIT_ALTERNATE_OBJECT_DIRECTORIES"] {
            let before = try team.head("s0")
            let grant = try team.run(["grant", "u-\(variable)", "premium", "--lifetime"], in: "s0", extra: [variable: elsewhere])
            #expect(grant.exitCode == 0, "\(variable): \(grant.stderr)")
            #expect(try team.head("s0") != before, "\(variable): committed")
        }
        let config = try team.run(["grant", "u-config", "premium", "--lifetime"], in: "s0",
                                  extra: ["GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": elsewhere])
        #expect(config.exitCode == 0)
        let sync = try team.run(["sync"], in: "s0", extra: ["GIT_NAMESPACE": "evil"])
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        let remoteMain = try Binary.runProgram("/usr/bin/env", ["git", "-C", team.remote, "rev-parse", "refs/heads/main"], environment: team.environment)
        #expect(remoteMain.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (try team.head("s0")))
        #expect(try Binary.runProgram("/usr/bin/env", ["git", "-C", team.remote, "for-each-ref", "refs/namespaces"], environment: team.environment).stdout.isEmpty)
        #expect(try team.git(["fsck", "--strict"], in: "s0").exitCode == 0)
    }

    /// A journal that renames through a linked folder is refused (docs/store-format.md, "Links"):
    /// the write never lands outside the store, whatever brought the journal there.
    @Test func journalReplayNeverFollowsALinkedFolder() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        let outside = directory.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: store + "/index", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: store + "/index/profile-id")
        try FileManager.default.createSymbolicLink(atPath: store + "/index/profile-id", withDestinationPath: outside)
        try FileManager.default.createDirectory(atPath: store + "/.tmp", withIntermediateDirectories: true)
        try Data("key\n".utf8).write(to: URL(fileURLWithPath: store + "/.tmp/k"))
        try Data(#"{"schema_version": 1, "renames": [{"from": ".tmp/k", "to": "index/profile-id/authorized_keys"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: store + "/.journal"))
        let grant = try Binary.run(["grant", "alice", "premium", "--lifetime", "--store", store])
        #expect(grant.exitCode == 4)
        #expect(grant.stderr.contains("index/profile-id"))
        #expect(grant.stderr.contains("symbolic link"))
        #expect(!FileManager.default.fileExists(atPath: outside + "/authorized_keys"))
    }

    /// `migrate` moves no file in from, or out to, a linked fan-out folder.
    @Test func migrateNeverMovesThroughALinkedFolder() throws {
        let directory = TemporaryDirectory()
        let store = directory.path + "/store"
        #expect(try Binary.run(["init", "--store", store, "--entitlement", "premium"]).exitCode == 0)
        #expect(try Binary.run(["migrate", "--layout", "fanout", "--store", store]).exitCode == 0)
        #expect(try Binary.run(["grant", "alice", "premium", "--lifetime", "--store", store]).exitCode == 0)
        let profile = try Binary.run(["path", "alice", "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let folder = (profile as NSString).deletingLastPathComponent
        let outside = directory.path + "/outside"
        try FileManager.default.moveItem(atPath: folder, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: outside)
        let migrate = try Binary.run(["migrate", "--layout", "flat", "--store", store])
        #expect(migrate.exitCode == 4)
        #expect(migrate.stderr.contains("symbolic link"), "\(migrate.stderr)")
        #expect(FileManager.default.fileExists(atPath: outside + "/alice.json"))
    }
}
