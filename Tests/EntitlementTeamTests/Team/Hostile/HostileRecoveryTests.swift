import Foundation
import Testing
@testable import EntitlementTeam
import EntitlementTestSupport

/// Killed runs and `sync --timeout`: whatever a killed run of the
/// tool's own git leaves is recovered under the lock; a local failure is never exit 6.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct HostileRecoveryTests {
    /// A `git` first on PATH that, for `subcommand`, leaves `files` (relative to the store, git's
    /// locks among them) and kills the tool that started it, as a kill at that moment would.
    static func killingGit(_ team: TeamFixture, on subcommand: String, leaving files: [String]) throws -> [String: String] {
        let bin = team.directory.path + "/killing-bin-\(subcommand)"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let touches = files.map { "mkdir -p \"$2/$(dirname '\($0)')\"; : > \"$2/\($0)\"" }.joined(separator: "\n")
        let script = "#!/bin/sh\ncase \" $* \" in *\" \(subcommand) \"*)\n\(touches)\nkill -9 $PPID; exit 1;;\nesac\nexec /usr/bin/git \"$@\"\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/git"))
        chmod(bin + "/git", 0o755)
        return ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    @Test func locksOfAKilledFetchAreRecoveredAndSyncWorks() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "a", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let killing = try Self.killingGit(team, on: "fetch", leaving: [".git/refs/remotes/origin/main.lock", ".git/FETCH_HEAD.lock"])
        #expect(try team.run(["sync"], in: "s0", extra: killing).exitCode != 0, "killed")
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.run(["check", "a", "--quiet"], in: "s0").exitCode == 0)
    }

    /// Killed in git's fast-forward: 130 new customers arrive, more new files than the tool's
    /// own fast-forward takes (`GitFastForward.largestNamedEntries`).
    @Test func locksAndMergeCopiesOfAKilledMergeAreRecovered() throws {
        try expectKilledSyncRecovered(on: "merge", arriving: (0..<130).map { "a\($0)" })
    }

    /// Killed in the tool's own fast-forward as its ref update starts (nothing written yet).
    @Test func aSyncKilledInItsOwnFastForwardIsRecovered() throws {
        try expectKilledSyncRecovered(on: "update-ref", arriving: ["a"])
    }

    private func expectKilledSyncRecovered(on subcommand: String, arriving customers: [String]) throws {
        let team = try TeamFixture.team(of: 2)
        let stdin = customers.joined(separator: "\n") + "\n"
        #expect(try team.run(["grant", "--stdin", "premium", "--lifetime", "--quiet"], in: "s1", stdin: stdin).exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "b", "premium", "--lifetime"], in: "s0").exitCode == 0)
        let killing = try Self.killingGit(team, on: subcommand, leaving: [".git/HEAD.lock", ".git/ORIG_HEAD.lock", ".git/index.lock", ".merge_file_AbC123"])
        #expect(try team.run(["sync"], in: "s0", extra: killing).exitCode != 0, "killed")
        let grant = try team.run(["grant", "c", "premium", "--lifetime"], in: "s0")
        #expect(grant.exitCode == 0, "\(grant.stderr)")
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.merge_file_AbC123"))
        #expect(try team.settledStatus(in: "s0").isEmpty)
        for user in [customers[0], customers[customers.count - 1], "b", "c"] {
            #expect(try team.run(["check", user, "--quiet"], in: "s0").exitCode == 0, "\(user)")
        }
    }

    @Test func locksAndStagedObjectsOfAKilledGrantAreRecovered() throws {
        let team = try TeamFixture.team(of: 1)
        let staged = ".git/objects/00/\(GitStaleFiles.objectStagingPrefix)4242-1"
        let stagedPack = ".git/objects/pack/\(GitStaleFiles.objectStagingPrefix)4242-2"
        let killing = try Self.killingGit(team, on: "update-ref", leaving: [".git/HEAD.lock", ".git/refs/heads/main.lock", staged, stagedPack])
        #expect(try team.run(["grant", "a", "premium", "--lifetime"], in: "s0", extra: killing).exitCode != 0, "killed")
        let grant = try team.run(["grant", "b", "premium", "--lifetime"], in: "s0")
        #expect(grant.exitCode == 0, "\(grant.stderr)")
        #expect(try team.git(["log", "--format=%s", "-2"], in: "s0").stdout.contains("grant premium to a"), "the killed grant is committed")
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/" + staged))
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/" + stagedPack))
        let fsck = try team.git(["fsck", "--strict"], in: "s0")
        #expect(fsck.exitCode == 0)
        #expect(!fsck.stderr.contains("bad sha1 file"))
        #expect(try team.settledStatus(in: "s0").isEmpty)
    }

    /// A lock the tool did not leave (a person's killed `git fetch`) is not removed, and the
    /// failure is reported as this machine's (exit 4), never as an unreachable remote (6).
    @Test func aLocalLockIsExit4NotExit6() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "a", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        try team.write(".git/refs/remotes/origin/main.lock", "", in: "s0")
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4, "\(sync.stderr)")
        #expect(sync.stderr.contains("main.lock"))
        #expect(sync.stderr.contains("not of the remote"))
    }

    /// A branch lock a person's git holds stops the fast-forward (exit 4, nothing written), and
    /// no later command of the tool's removes it: the failure was no kill.
    @Test func aPersonsBranchLockStopsTheSyncAndIsKept() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "a", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        try team.write(".git/refs/heads/main.lock", "", in: "s1")
        let sync = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(sync.exitCode == 4, "\(sync.stderr)")
        #expect(try team.git(["status", "--porcelain", "--untracked-files=all"], in: "s1").stdout == "")
        #expect(!FileManager.default.fileExists(atPath: team.store("s1") + "/.git/entitlement/local-git-running"))
        _ = try team.run(["grant", "b", "premium", "--lifetime"], in: "s1")
        #expect(FileManager.default.fileExists(atPath: team.store("s1") + "/.git/refs/heads/main.lock"), "the person's lock")
        try FileManager.default.removeItem(atPath: team.store("s1") + "/.git/refs/heads/main.lock")
        let again = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try team.run(["check", "a", "--quiet"], in: "s1").exitCode == 0)
    }

    /// A copy made with `cp -a` (new inodes, same files) syncs.
    @Test func aCopiedStoreSyncs() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "a", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try Binary.runProgram("/bin/cp", ["-a", team.store("s0"), team.store("copy")]).exitCode == 0)
        #expect(try team.run(["grant", "b", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let sync = try team.run(["sync"], in: "copy")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.run(["check", "b", "--quiet"], in: "copy").exitCode == 0)
    }

    /// A remote that stops answering is given up after `--timeout` (exit 6).
    @Test func aRemoteThatNeverAnswersTimesOut() throws {
        let team = try TeamFixture.team(of: 1)
        #expect(try team.git(["remote", "set-url", "origin", "ssh://git.invalid/store.git"], in: "s0").exitCode == 0)
        let sync = try team.run(["sync", "--timeout", "1"], in: "s0", extra: ["GIT_SSH_COMMAND": "sh -c 'sleep 30' --"])
        #expect(sync.exitCode == 6)
        #expect(sync.stderr.contains("did not finish within 1 s (--timeout)"), "\(sync.stderr)")
        let help = try Binary.run(["sync", "--help"])
        #expect(help.stdout.contains("--timeout"))
        #expect(help.stdout.contains("120"))
        #expect(try team.run(["sync", "--timeout", "0"], in: "s0").exitCode == 2)
    }
}
