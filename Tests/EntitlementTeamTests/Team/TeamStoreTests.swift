import Foundation
import Testing
import EntitlementTestSupport

/// Team stores with real git and a bare remote on local disk.
@Suite(.tags(.endToEnd), .serialized, .enabled(if: Binary.exists))
struct TeamStoreTests {
    @Test func everyMutationIsOneCommitOfExactlyItsFiles() throws {
        let team = try TeamFixture.team(of: 1)
        let grant = try team.run(["grant", "alice@example.com", "premium", "--duration", "1m", "--reason", "Outage INC-42"], in: "s0")
        #expect(grant.exitCode == 0, "\(grant.stderr)")
        let log = try team.git(["log", "-1", "--format=%an <%ae>|%s", "--name-only"], in: "s0").stdout
        #expect(log.hasPrefix("Agent s0 <s0@example.com>|grant premium to alice@example.com for 1m: Outage INC-42"))
        let profilePath = try team.run(["path", "alice@example.com"], in: "s0").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let relative = String(profilePath.dropFirst(team.store("s0").count + 1))
        let files = log.split(separator: "\n").dropFirst().map(String.init)
        #expect(files.count == 2)
        #expect(files.contains(relative))
        #expect(files.contains { $0.hasPrefix("index/profile-id/") })
        #expect(relative.split(separator: "/").count == 4, "fan-out layout: profiles/ab/cd/NAME.json")
        // Nothing is left to commit once git's index catches up (GitIndex), and git's own check is clean.
        #expect(try team.settledStatus(in: "s0").isEmpty)
        #expect(try team.git(["fsck", "--strict"], in: "s0").exitCode == 0)
        let revoke = try team.run(["revoke", "alice@example.com", "premium", "--yes", "--reason", "Mistake", "--actor", "Dana <dana@example.com>"], in: "s0")
        #expect(revoke.exitCode == 0)
        #expect(try team.git(["log", "-1", "--format=%an <%ae>|%s"], in: "s0").stdout == "Dana <dana@example.com>|revoke premium from alice@example.com: Mistake\n")
        // A retry with the same key changes nothing and commits nothing.
        let before = try team.head("s0")
        _ = try team.run(["grant", "bob", "premium", "--lifetime", "--idempotency-key", "k1"], in: "s0")
        let middle = try team.head("s0")
        _ = try team.run(["grant", "bob", "premium", "--lifetime", "--idempotency-key", "k1"], in: "s0")
        #expect(before != middle)
        #expect(try team.head("s0") == middle)
    }

    @Test func bulkGrantRestoreAndGuardedRevokeAreOneCommitEach() throws {
        let team = try TeamFixture.team(of: 1)
        let start = try team.head("s0")
        let bulk = try team.run(["grant", "--stdin", "premium", "--duration", "7d", "--reason", "INC-7", "--quiet"], in: "s0", stdin: "ann\nbo\ncy\n")
        #expect(bulk.exitCode == 0, "\(bulk.stderr)")
        #expect(try team.git(["rev-list", "--count", "\(start)..HEAD"], in: "s0").stdout == "1\n")
        #expect(try team.git(["log", "-1", "--format=%s"], in: "s0").stdout == "grant premium to 3 customers for 1w: INC-7\n")
        #expect(try team.git(["show", "--name-only", "--format=", "HEAD"], in: "s0").stdout.split(separator: "\n").count == 6, "3 profiles, 3 index entries")
        #expect(try team.run(["revoke", "bo", "premium", "--reason", "no"], in: "s0").exitCode == 2, "no terminal, no --yes: refused")
        let afterBulk = try team.head("s0")
        #expect(try team.run(["revoke", "bo", "premium", "--reason", "oops", "--yes"], in: "s0").exitCode == 0)
        #expect(try team.run(["restore", "bo", "premium", "--reason", "undo"], in: "s0").exitCode == 0)
        #expect(try team.git(["log", "--format=%s", "\(afterBulk)..HEAD"], in: "s0").stdout == "restore premium of bo: undo\nrevoke premium from bo: oops\n")
        #expect(try team.settledStatus(in: "s0").isEmpty)
        // The store-wide commands see the fanned-out profiles, and a team store verifies clean.
        #expect(try team.run(["verify"], in: "s0").exitCode == 0)
        #expect(try team.run(["summary", "--json"], in: "s0").stdout.contains("\"profiles\": 3"))
    }

    @Test func plainStoreBecomesTeamStoreKeepingEveryFile() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let before = try FileManager.default.subpathsOfDirectory(atPath: store).sorted()
        let environment = ["GIT_CONFIG_GLOBAL": directory.path + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "ENTITLEMENT_EXECUTABLE": Binary.path]
        let result = try Binary.run(["init", "--git", "--store", store, "--actor", "Ops <ops@example.com>"], environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let tracked = try Binary.runProgram("/usr/bin/env", ["git", "-C", store, "ls-files"], environment: environment).stdout.split(separator: "\n").map(String.init)
        let files = before.filter { !FileManager.default.fileExists(atPath: store + "/" + $0 + "/.") && !$0.hasSuffix(".lock") }
        for file in files { #expect(tracked.contains(file), "\(file) committed") }
        #expect(try Binary.run(["check", "multi-entitlement", "--store", store, "--at", "2026-01-15T12:00:00Z", "--quiet"]).exitCode == 0)
        #expect(try Binary.run(["init", "--git", "--store", store], environment: environment).exitCode == 4)
    }

    @Test func migrateMovesEveryProfileInOneCommit() throws {
        let team = try TeamFixture.team(of: 1)
        for user in ["a", "b", "c d"] { #expect(try team.run(["grant", user, "premium", "--lifetime"], in: "s0").exitCode == 0) }
        let before = try team.head("s0")
        let flat = try team.run(["migrate", "--layout", "flat", "--json"], in: "s0")
        #expect(flat.exitCode == 0, "\(flat.stderr)")
        #expect(flat.stdout.contains("\"moved_files\": 6"))
        #expect(try team.git(["rev-list", "--count", "\(before)..HEAD"], in: "s0").stdout == "1\n")
        #expect(try team.settledStatus(in: "s0").isEmpty)
        #expect(try team.run(["path", "c d"], in: "s0").stdout.hasSuffix("/profiles/c%20d.json\n"))
        #expect(try team.run(["check", "c d", "--quiet"], in: "s0").exitCode == 0)
        // The audit follows a profile across the move.
        let history = try team.run(["history", "a", "--json"], in: "s0").stdout
        #expect(history.contains("\"author\": \"Agent s0 <s0@example.com>\""))
        #expect(try team.run(["migrate", "--layout", "fanout"], in: "s0").exitCode == 0)
        #expect(try team.run(["check", "a", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.settledStatus(in: "s0").isEmpty)
    }

    @Test func syncMergesBothSidesAndPlainGitPullUsesTheDriver() throws {
        let team = try TeamFixture.team(of: 3)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "7d", "--reason", "a"], in: "s0").exitCode == 0)
        #expect(try team.run(["grant", "alice", "sports", "--lifetime", "--reason", "b"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        // s2 pulls with plain git: the profile merges through the driver, no conflict markers.
        #expect(try team.run(["grant", "alice", "premium", "--lifetime", "--reason", "c"], in: "s2").exitCode == 0)
        let pull = try team.git(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: "s2")
        #expect(pull.exitCode == 0, "\(pull.stderr)")
        let history = try team.run(["history", "alice", "--json"], in: "s2").stdout
        #expect(["\"a\"", "\"b\"", "\"c\""].allSatisfy(history.contains))
        #expect(!history.contains("<<<<<<<"))
    }

    @Test func pushRaceBothLand() throws {
        let team = try TeamFixture.team(of: 3)
        #expect(try team.run(["grant", "carol", "premium", "--lifetime", "--reason", "one"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "carol", "premium", "--duration", "1y", "--reason", "two"], in: "s2").exitCode == 0)
        let group = DispatchGroup()
        let codes = Mutex2<[Int32]>([])
        for name in ["s1", "s2"] {
            DispatchQueue.global().async(group: group) {
                let code = (try? team.run(["sync"], in: name).exitCode) ?? -1
                codes.mutate { $0.append(code) }
            }
        }
        group.wait()
        #expect(codes.value == [0, 0])
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let history = try team.run(["history", "carol", "--json"], in: "s0").stdout
        #expect(history.contains("\"one\"") && history.contains("\"two\""))
    }

    @Test func unreachableRemoteIsExit6AndKeepsLocalWork() throws {
        let team = try TeamFixture.team(of: 1)
        #expect(try team.run(["grant", "dave", "premium", "--lifetime"], in: "s0").exitCode == 0)
        let head = try team.head("s0")
        try team.git(["remote", "set-url", "origin", team.directory.path + "/gone.git"], in: "s0")
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 6)
        #expect(sync.stderr.hasPrefix("Error: cannot reach the remote 'origin'"))
        #expect(sync.stderr.contains("Local commits are kept"))
        #expect(try team.head("s0") == head)
        #expect(try team.run(["check", "dave", "--quiet"], in: "s0").exitCode == 0)
    }

    @Test func cloneOfAnUnreachableRemoteIsExit6AndSyncOfAPlainStoreIsAUsageError() throws {
        let team = TeamFixture()
        let clone = try Binary.run(["clone", team.directory.path + "/nothing.git", "--store", team.store("c")], environment: team.environment)
        #expect(clone.exitCode == 6)
        #expect(clone.stderr.hasPrefix("Error: cannot clone"))
        // Nothing was cloned, so there are no local commits to keep.
        #expect(clone.stderr.contains("Nothing was cloned"))
        #expect(!clone.stderr.contains("ommits are kept"))
        let plain = team.directory.store()
        let sync = try Binary.run(["sync", "--store", plain], environment: team.environment)
        #expect(sync.exitCode == 2)
        #expect(sync.stderr.contains("entitlement init --git"))
    }

    @Test func corruptProfileOnTheRemoteStopsTheSync() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "erin", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let path = try team.run(["path", "erin"], in: "s1").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try "{ broken".write(toFile: path, atomically: true, encoding: .utf8)
        try team.git(["commit", "--quiet", "-am", "hand edit"], in: "s1")
        try team.git(["push", "--quiet", "origin", "main"], in: "s1")
        let mine = team.snapshot("s0")
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4)
        #expect(sync.stderr.contains("origin/main:profiles/"))
        #expect(sync.stderr.contains("erin.json"))
        #expect(team.snapshot("s0") == mine, "nothing merged")
        #expect(try team.run(["check", "erin", "--quiet"], in: "s0").exitCode == 0)
    }

    @Test func historyShowsCommitAndAuthorAndFlagsMismatches() throws {
        let team = try TeamFixture.team(of: 1)
        #expect(try team.run(["grant", "fay", "premium", "--lifetime", "--reason", "r"], in: "s0").exitCode == 0)
        #expect(try team.run(["grant", "fay", "sports", "--lifetime", "--actor", "mallory"], in: "s0").exitCode == 0)
        let commit = try team.head("s0")
        let json = try team.run(["history", "fay", "--json"], in: "s0")
        #expect(json.exitCode == 0, "\(json.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(events.count == 2)
        let first = try #require(events[0]["commit"] as? [String: Any])
        #expect(first["author"] as? String == "Agent s0 <s0@example.com>")
        #expect(events[0]["actor_matches_author"] as? Bool == true)
        let second = try #require(events[1]["commit"] as? [String: Any])
        #expect(second["id"] as? String == commit)
        #expect(second["author"] as? String == "mallory")
        #expect(events[1]["actor_matches_author"] as? Bool == true)
        // A hand-made commit that puts a grant under someone else's name is flagged.
        let path = try team.run(["path", "fay"], in: "s0").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"granted_by\": \"mallory\"", with: "\"granted_by\": \"root\"")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try team.git(["commit", "--quiet", "-am", "edit"], in: "s0")
        let table = try team.run(["history", "fay"], in: "s0").stdout
        #expect(table.contains("COMMIT"))
        #expect(table.contains("!"))
    }
}

/// A value shared between threads in a test.
final class Mutex2<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
