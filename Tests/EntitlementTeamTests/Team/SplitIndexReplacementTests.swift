import Foundation
import Glibc
import Testing
import EntitlementModel
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// The tool writes a changed shared entry of git's split index as git itself does: a nameless
/// entry that replaces it by position (the replace bitmap of the `link` extension). A named
/// entry with the name of a shared one made git 2.39 crash (SIGSEGV) in `reset --hard` after a
/// bulk grant or a sync of a thousand profiles: git puts such an entry into the shared array
/// with memory of the small file's, which `reset` frees and then reads.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct SplitIndexReplacementTests {
    // MARK: The bitmaps, against git's own

    @Test func bitmapsDecodeWhatTheyEncode() throws {
        let sets: [[Int]] = [[], [0], [63], [64], [0, 1, 2, 63, 64, 65], [5, 700, 701, 100_000], Array(stride(from: 3, to: 5_000, by: 7)),
                             [1 << 20, (1 << 20) + 64, 3 << 21]]
        for positions in sets {
            let bytes = EWAHBitmap.encode(positions)
            let decoded = try #require(EWAHBitmap.decode([9, 9] + bytes + [7], at: 2))
            #expect(decoded.positions == positions)
            #expect(decoded.length == bytes.count)
        }
        #expect(EWAHBitmap.decode(Array(EWAHBitmap.encode([1, 900]).dropLast()), at: 0) == nil, "cut short")
    }

    /// Git's own split index, after `update-index` of changed files: its bitmaps read here, and
    /// written again byte for byte.
    @Test func theBitmapsGitWritesAreReadAndWrittenAlike() throws {
        let directory = TemporaryDirectory()
        let (root, git) = try Self.gitRepository(files: 200, in: directory)
        // 150 neighbours: whole words of set bits, which git writes as runs.
        let changed = (10..<160).map { String(format: "f%03d", $0) }
        for name in changed { try Data("changed \(name)\n".utf8).write(to: URL(fileURLWithPath: "\(root)/\(name)")) }
        #expect(try git(["update-index"] + changed).exitCode == 0)
        let file = try Self.splitIndex(root)
        let bitmaps = try #require(file.bitmaps)
        #expect(bitmaps.replaced.count == file.replaced.count)
        #expect(file.named.isEmpty)
        let listed = try git(["ls-files"]).stdout.split(separator: "\n").map(String.init)
        for name in changed { #expect(bitmaps.replaced.contains(try #require(listed.firstIndex(of: name)))) }
        #expect(Array(file.link[0..<20]) + EWAHBitmap.encode(bitmaps.deleted) + EWAHBitmap.encode(bitmaps.replaced) == file.link)
        // A run of full words: the run-length word's bit 0 set.
        let replaceBitmap = Array(file.link[(20 + EWAHBitmap.encode(bitmaps.deleted).count)...])
        #expect((0..<Int(SplitIndexFile.be32(replaceBitmap, 4))).contains { replaceBitmap[8 + $0 * 8 + 7] & 1 == 1 })
    }

    /// The kept positions find every shared entry and no other name, across the strides.
    @Test func sharedPositionsFindEveryEntry() throws {
        let directory = TemporaryDirectory()
        let (root, _) = try Self.gitRepository(files: SharedIndexPositions.stride * 2 + 9, in: directory)
        let repository = GitRepository(root: root, environment: Self.environment(directory))
        let file = try Self.splitIndex(root)
        let id = try #require(file.sharedIndexID)
        let shared = try #require(try SharedIndexPositions(sharedIndex: id, in: repository))
        let names = (0..<(SharedIndexPositions.stride * 2 + 9)).map { Array(String(format: "f%03d", $0).utf8) }
        let found = try #require(try shared.positions(of: names + [Array("a".utf8), Array("f0005".utf8), Array("zz".utf8)]))
        #expect(found.count == names.count)
        for (index, name) in names.enumerated() { #expect(found[name] == index) }
        // Kept beside the shared index and read again, not made again.
        let kept = try #require(try GitFiles.read(root + "/.git/entitlement/shared-positions"))
        _ = try SharedIndexPositions(sharedIndex: id, in: repository)
        #expect(try GitFiles.read(root + "/.git/entitlement/shared-positions") == kept)
    }

    /// A kept positions file that is damaged (offsets out of order, cut short) is made again
    /// from the shared index, never trusted.
    @Test func aDamagedPositionsFileIsMadeAgain() throws {
        let directory = TemporaryDirectory()
        let (root, _) = try Self.gitRepository(files: SharedIndexPositions.stride + 3, in: directory)
        let repository = GitRepository(root: root, environment: Self.environment(directory))
        let id = try #require(try Self.splitIndex(root).sharedIndexID)
        _ = try SharedIndexPositions(sharedIndex: id, in: repository)
        let keptPath = root + "/.git/entitlement/shared-positions"
        let kept = try #require(try GitFiles.read(keptPath))
        let header = kept.prefix { $0 != UInt8(ascii: "\n") }.count + 1
        for damaged in [Array(kept.dropLast(5)), Array(kept[..<header]) + [0, 0, 0, 2] + [UInt8](repeating: 0xFF, count: 24) + [0]] {
            try GitFiles.writeAtomically(damaged, to: keptPath, durable: false)
            let shared = try #require(try SharedIndexPositions(sharedIndex: id, in: repository))
            let last = Array(String(format: "f%03d", SharedIndexPositions.stride + 2).utf8)
            #expect(try shared.positions(of: [last]) == [last: SharedIndexPositions.stride + 2])
            #expect(try GitFiles.read(keptPath) == kept)
        }
    }

    // MARK: Git after the tool's index updates

    /// A bulk grant that changes 1,200 profiles of a converted store, then git's `reset --hard`.
    @Test func gitResetsAfterABulkGrant() throws {
        let directory = TemporaryDirectory()
        let store = directory.path + "/s"
        let environment = Self.environment(directory)
        let users = (0..<1_200).map { "user\($0)" }.joined(separator: "\n") + "\n"
        #expect(try Binary.run(["init", "--entitlement", "premium", "--store", store], environment: environment).exitCode == 0)
        #expect(try Binary.run(["grant", "--stdin", "premium", "--lifetime", "--quiet", "--store", store], stdin: users, environment: environment).exitCode == 0)
        #expect(try Binary.run(["init", "--git", "--store", store], environment: environment).exitCode == 0)
        let grant = try Binary.run(["grant", "--stdin", "premium", "--duration", "1w", "--quiet", "--store", store], stdin: users, environment: environment)
        #expect(grant.exitCode == 0, "\(grant.stderr)")
        let git = { (arguments: [String]) throws -> CLIResult in try Binary.runProgram("/usr/bin/env", ["git", "-C", store] + arguments, environment: environment) }
        let file = try Self.splitIndex(store)
        #expect(file.replaced.count >= 1_200, "the changed profiles replace shared entries")
        #expect(file.named.isEmpty)
        #expect(try git(["status", "--porcelain"]).stdout == "")
        let reset = try git(["reset", "--quiet", "--hard", "HEAD~1"])
        #expect(reset.exitCode == 0, "\(reset.stderr)")
        #expect(try git(["status", "--porcelain"]).stdout == "")
        #expect(try Binary.run(["check", "user7", "premium", "--at", "2099-01-01T00:00:00Z", "--quiet", "--store", store], environment: environment).exitCode == 0)
    }

    /// A sync that brings a thousand changed profiles: the tool checks them out, and git can
    /// then reset, as after any fast-forward.
    @Test func gitResetsAfterASyncOfAThousandProfiles() throws {
        let team = try TeamFixture.team(of: 2)
        let users = (0..<1_000).map { "c\($0)" }.joined(separator: "\n") + "\n"
        #expect(try team.run(["grant", "--stdin", "premium", "--lifetime", "--quiet"], in: "s0", stdin: users).exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        // Folded into a new shared index, as sync's first merge of so many profiles does.
        #expect(try team.git(["-c", "splitIndex.maxPercentChange=0", "update-index", "--split-index"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "--stdin", "sports", "--duration", "1w", "--quiet"], in: "s0", stdin: users).exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let before = try team.git(["rev-parse", "HEAD"], in: "s1").stdout
        let sync = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.git(["rev-parse", "HEAD"], in: "s1").stdout == team.git(["rev-parse", "HEAD"], in: "s0").stdout)
        #expect(try team.git(["reflog", "-1", "--format=%gs"], in: "s1").stdout == "sync: fast-forward to origin/main\n")
        #expect(try team.git(["rev-parse", "ORIG_HEAD"], in: "s1").stdout == before)
        #expect(try team.git(["status", "--porcelain"], in: "s1").stdout == "")
        let profile = try #require(try team.git(["ls-files", "profiles"], in: "s1").stdout.split(separator: "\n").first)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: team.store("s1") + "/" + profile)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0, "the store's mode, not the umask's")
        #expect(try team.run(["check", "c999", "sports", "--quiet"], in: "s1").exitCode == 0)
        // Each changed profile replaces its shared entry by position; none is named.
        let file = try Self.splitIndex(team.store("s1"))
        #expect(file.named.isEmpty)
        #expect(file.replaced.count >= 1_000)
        let reset = try team.git(["reset", "--quiet", "--hard", "HEAD~1"], in: "s1")
        #expect(reset.exitCode == 0, "\(reset.stderr)")
        #expect(try team.git(["status", "--porcelain"], in: "s1").stdout == "")
        #expect(try team.git(["fsck", "--no-progress"], in: "s1").exitCode == 0)
    }

    /// An index written by an earlier version, with named entries for shared paths, is
    /// rewritten at the next sync before git reads it, and git can then reset.
    @Test func namedEntriesOfAnEarlierVersionAreReplacedAtTheNextSync() throws {
        let team = try TeamFixture.team(of: 2)
        let users = (0..<300).map { "c\($0)" }.joined(separator: "\n") + "\n"
        #expect(try team.run(["grant", "--stdin", "premium", "--lifetime", "--quiet"], in: "s0", stdin: users).exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.git(["-c", "splitIndex.maxPercentChange=0", "update-index", "--split-index"], in: "s0").exitCode == 0)
        let repository = GitRepository(root: team.store("s0"), environment: team.environment)
        let paths = try team.git(["ls-files", "profiles"], in: "s0").stdout.split(separator: "\n").map(String.init)
        #expect(paths.count == 300)
        // The old shape: each profile's entry named in the small file, nothing replaced.
        var file = try Self.splitIndex(team.store("s0"))
        for path in paths { file.set(Array(path.utf8), raw: try #require(try SplitIndexUpdate.entry(for: path, in: repository))) }
        #expect(try SplitIndexUpdate.install(file.bytes, in: repository, keepingTimesOf: nil))
        try GitFiles.remove(SplitIndexUpdate.convertedPath(repository))
        #expect(try team.run(["sync", "--pull-only"], in: "s0").exitCode == 0)
        let converted = try Self.splitIndex(team.store("s0"))
        #expect(converted.named.isEmpty)
        #expect(converted.replaced.count >= 300)
        #expect(GitFiles.exists(SplitIndexUpdate.convertedPath(repository)))
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
        #expect(try team.git(["reset", "--quiet", "--hard", "HEAD~1"], in: "s0").exitCode == 0)
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
    }

    /// A person's commit made while sync merges (git's own commands do not take the store
    /// lock) stays on the branch: the fast-forward's ref update finds HEAD moved and stops
    /// with nothing written, and the next sync merges it.
    @Test func aCommitMadeDuringTheSyncStaysOnTheBranch() throws {
        let team = try Self.pairWithANewCustomer()
        let sync = try team.run(["sync", "--pull-only"], in: "s1", extra: try Self.wrappedGit(team, on: "diff-tree",
            before: "/usr/bin/git -C \"$2\" -c user.name=P -c user.email=p@example.com commit --quiet --allow-empty -m \"a person's commit\""))
        #expect(sync.exitCode == 4, "\(sync.stderr)")
        #expect(try team.git(["log", "-1", "--format=%s"], in: "s1").stdout == "a person's commit\n")
        #expect(try team.git(["status", "--porcelain", "--untracked-files=all"], in: "s1").stdout == "", "nothing written")
        #expect(!FileManager.default.fileExists(atPath: team.store("s1") + "/.git/entitlement/index-stale"))
        let again = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try team.git(["log", "--format=%s"], in: "s1").stdout.contains("a person's commit"))
        #expect(try team.run(["check", "newbie", "premium", "--quiet"], in: "s1").exitCode == 0)
        #expect(try team.settledStatus(in: "s1").isEmpty)
    }

    /// Killed right after its ref update, before a file is written: HEAD is new, the files and
    /// the index old. Git's index lock, held since before the update, keeps a person's commit
    /// from recording that state (it would undo what arrived); the next command of the tool's
    /// finishes the fast-forward.
    @Test func aSyncKilledAfterItsRefUpdateIsFinishedAndNothingIsCommittedMeanwhile() throws {
        let team = try Self.pairWithANewCustomer()
        let killed = try team.run(["sync", "--pull-only"], in: "s1", extra: try Self.wrappedGit(team, on: "update-ref", after: "kill -9 $PPID"))
        #expect(killed.exitCode != 0, "killed")
        #expect(try team.git(["rev-parse", "HEAD"], in: "s1").stdout == team.git(["rev-parse", "HEAD"], in: "s0").stdout, "HEAD moved")
        let commit = try team.git(["-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "--quiet", "--allow-empty", "-m", "a person's commit"], in: "s1")
        #expect(commit.exitCode != 0, "git's index lock is held")
        let sync = try team.run(["sync", "--pull-only"], in: "s1")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.run(["check", "newbie", "premium", "--quiet"], in: "s1").exitCode == 0)
        #expect(try team.run(["check", "ann", "sports", "--quiet"], in: "s1").exitCode == 0)
        #expect(try team.settledStatus(in: "s1").isEmpty)
    }

    /// `syncedPair`, and s0 grants a new customer and pushes it.
    static func pairWithANewCustomer() throws -> TeamFixture {
        let team = try SyncFastForwardTests.syncedPair()
        #expect(try team.run(["grant", "newbie", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        return team
    }

    /// A `git` first on PATH that runs `before` and `after` around the real git when its
    /// arguments include `subcommand` with `--stdin` for `update-ref` (the fast-forward's).
    static func wrappedGit(_ team: TeamFixture, on subcommand: String, before: String = ":", after: String = ":") throws -> [String: String] {
        let bin = team.directory.path + "/wrapped-\(subcommand)"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let match = subcommand == "update-ref" ? "*\" update-ref \"*\" --stdin \"*" : "*\" \(subcommand) \"*"
        let script = "#!/bin/sh\ncase \" $* \" in \(match)) \(before); /usr/bin/git \"$@\"; status=$?; \(after); exit $status;;\nesac\nexec /usr/bin/git \"$@\"\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/git"))
        #expect(chmod(bin + "/git", 0o755) == 0)
        return ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// An edit made after sync's `git status` (the check runs beside the fetch) is found before
    /// anything is written, and kept.
    @Test func anEditMadeAfterTheCheckIsKept() throws {
        let team = try SyncFastForwardTests.syncedPair()
        #expect(try team.git(["fetch", "--quiet", "origin"], in: "s1").exitCode == 0)
        let path = try #require(try team.git(["ls-files", "profiles"], in: "s1").stdout.split(separator: "\n").map(String.init).first { $0.contains("ann") })
        let full = team.store("s1") + "/" + path
        let edited = try Data(contentsOf: URL(fileURLWithPath: full)) + Data(" \n".utf8)
        try edited.write(to: URL(fileURLWithPath: full))
        let repository = GitRepository(root: team.store("s1"), environment: team.environment)
        let head = try repository.check(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let forward = GitFastForward(store: EntitlementStore(root: team.store("s1")), repository: repository)
        #expect(throws: EntitlementError.self) { _ = try forward.plan(from: head, to: "origin/main") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: full)) == edited)
        #expect(try repository.check(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines) == head)
    }

    // MARK: Helpers

    static func splitIndex(_ root: String) throws -> SplitIndexFile {
        let bytes = try #require(try GitFiles.read(root + "/.git/index"))
        return try #require(SplitIndexFile(bytes))
    }

    static func environment(_ directory: TemporaryDirectory) -> [String: String] {
        ["GIT_CONFIG_GLOBAL": directory.path + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "HOME": directory.path,
         "ENTITLEMENT_EXECUTABLE": Binary.path, "ENTITLEMENT_ACTOR": "Test <test@example.com>",
         "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"]
    }

    /// A repository of `files` files f000, f001, …, split index on, committed by git.
    static func gitRepository(files: Int, in directory: TemporaryDirectory) throws -> (String, ([String]) throws -> CLIResult) {
        let root = directory.path + "/r"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for index in 0..<files { try Data("\(index)\n".utf8).write(to: URL(fileURLWithPath: root + String(format: "/f%03d", index))) }
        let environment = environment(directory)
        let git = { (arguments: [String]) throws -> CLIResult in try Binary.runProgram("/usr/bin/env", ["git", "-C", root] + arguments, environment: environment) }
        for arguments in [["init", "--quiet"], ["config", "core.splitIndex", "true"], ["add", "--all"], ["commit", "--quiet", "-m", "x"]] {
            let result = try git(arguments)
            try #require(result.exitCode == 0, "\(arguments): \(result.stderr)")
        }
        return (root, git)
    }
}
