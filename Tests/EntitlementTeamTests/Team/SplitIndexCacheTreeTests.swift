import Foundation
import Testing
@testable import EntitlementTeam
import EntitlementTestSupport

/// The small file of a split index, when git has written the whole cache tree into it (at 1M
/// fan-out profiles: 3.6 MB, past the size the tool keeps). The tool drops the cache tree and
/// writes the entries; folding instead would write the cache tree again, so that every later
/// commit folded a new 240 MB shared index (seen at 1M profiles: over a second a grant).
/// Small limits stand in for the real ones. And a sync that checks out many files folds
/// the index at once.
@Suite(.tags(.endToEnd), .enabled(if: Binary.exists))
struct SplitIndexCacheTreeTests {
    static let limits = SplitIndexUpdate.Limits(splitFile: 4096, splitFileRead: 1 << 20, cacheTree: 512, keepCacheTreeFromEntries: 10_000)

    /// Past `keepCacheTreeFromEntries`, a cache tree of any size is kept and only the folders
    /// above the change are marked out of date.
    @Test func aBigIndexKeepsItsCacheTree() throws {
        let team = TeamFixture()
        let (root, repository) = try splitRepository(of: 300, in: team)
        var limits = Self.limits
        limits.keepCacheTreeFromEntries = 300
        let path = "profiles/7/p.json"
        try Data("{\"n\":7,\"changed\":true}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + path))
        #expect(try team.git(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "c", "--only", "--", path], in: "s0").exitCode == 0)
        try GitIndex.noteStale([path], in: repository, durable: false)
        try GitIndex.refresh(repository, limits: limits)
        let bytes = try #require(try GitFiles.read(root + "/.git/index"))
        let file = try #require(SplitIndexFile(bytes))
        let tree = try #require(file.tree, "kept")
        #expect(tree.count > limits.cacheTree)
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
        // Git reads it: the folders above the change are out of date, the others valid.
        #expect(try team.git(["write-tree"], in: "s0").stdout == team.git(["rev-parse", "HEAD^{tree}"], in: "s0").stdout)
    }

    @Test func aCacheTreePastTheLimitIsDroppedAndNoSharedIndexIsWritten() throws {
        let team = TeamFixture()
        let (root, repository) = try splitRepository(of: 300, in: team)
        #expect(try indexSize(root) > Self.limits.splitFile, "git wrote the cache tree into the small file")
        let shared = try sharedIndexes(root)
        #expect(shared.count == 1)
        for round in 0..<3 {
            let path = "profiles/\(round)/p.json"
            try Data("{\"n\":\(round),\"changed\":true}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + path))
            #expect(try team.git(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "c", "--only", "--", path], in: "s0").exitCode == 0)
            // Git's commit wrote the small file again, cache tree included; the tool's refresh follows.
            #expect(try indexSize(root) > Self.limits.splitFile)
            try GitIndex.noteStale([path], in: repository, durable: false)
            try GitIndex.refresh(repository, limits: Self.limits)
            #expect(try sharedIndexes(root) == shared, "round \(round): no shared index written")
            #expect(try indexSize(root) <= Self.limits.splitFile, "round \(round)")
            #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "", "round \(round)")
        }
        // A change too big for the small file is folded, once.
        var paths: [String] = []
        for index in 100..<300 {
            let path = "profiles/\(index)/p.json"
            try Data("{\"n\":\(index),\"bulk\":true}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + path))
            paths.append(path)
        }
        #expect(try team.git(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "bulk", "--only", "--"] + paths, in: "s0").exitCode == 0)
        try GitIndex.noteStale(paths, in: repository, durable: false)
        try GitIndex.refresh(repository, limits: Self.limits)
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
    }

    /// A sync that checks out many profiles leaves few named entries in the small split file:
    /// git would write each one as a new entry, which every later read of the index inserts by
    /// moving all the others; the tool's own fast-forward replaces shared entries by position.
    @Test func aSyncOfManyProfilesFoldsTheIndexAndAFewDoNot() throws {
        let team = try TeamFixture.team(of: 2)
        // 3,000 entries, so that 200 changed ones stay under git's own 20% fold.
        let base = (0..<1_500).map { "c\($0)" }.joined(separator: "\n") + "\n"
        #expect(try team.run(["grant", "--stdin", "premium", "--duration", "1w", "--quiet"], in: "s0", stdin: base).exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        for round in 0..<2 {
            let many = (round * 200..<(round + 1) * 200).map { "c\($0)" }.joined(separator: "\n") + "\n"
            #expect(try team.run(["grant", "--stdin", "sports", "--duration", "1w", "--quiet"], in: "s0", stdin: many).exitCode == 0)
            #expect(try team.run(["sync"], in: "s0").exitCode == 0)
            #expect(try team.run(["grant", "local-\(round)", "premium", "--lifetime"], in: "s1").exitCode == 0)
            #expect(try team.run(["sync"], in: "s1").exitCode == 0, "a merge of 200 profiles")
            // Replacements by position are read in place; only new, named entries cost git a move each.
            let bytes = try #require(try GitFiles.read(team.store("s1") + "/.git/index"))
            let held = try #require(SplitIndexFile(bytes)).named.count
            #expect(held <= GitSyncMerge.largestMergedSplitFile, "round \(round): \(held) named entries")
            #expect(try team.git(["status", "--porcelain"], in: "s1").stdout == "")
        }
        // A few changed profiles stay in the small file: no shared index is written for them.
        let shared = try sharedIndexes(team.store("s1"))
        #expect(try team.run(["grant", "c1", "sports", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync", "--pull-only"], in: "s1").exitCode == 0)
        #expect(try sharedIndexes(team.store("s1")) == shared)
        #expect(try team.git(["status", "--porcelain"], in: "s1").stdout == "")
        #expect(try team.run(["check", "c1", "sports", "--quiet"], in: "s1").exitCode == 0)
    }


    /// A git repository of `count` folders of one file each, split index on, committed by git
    /// (so the small file holds git's whole cache tree).
    private func splitRepository(of count: Int, in team: TeamFixture) throws -> (String, GitRepository) {
        let root = team.store("s0")
        for index in 0..<count {
            let folder = "\(root)/profiles/\(index)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("{\"n\":\(index)}\n".utf8).write(to: URL(fileURLWithPath: folder + "/p.json"))
        }
        for arguments in [["init", "--quiet"], ["config", "core.splitIndex", "true"], ["add", "--all"],
                          ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "x"]] {
            #expect(try team.git(arguments, in: "s0").exitCode == 0)
        }
        return (root, GitRepository(root: root, environment: team.environment))
    }

    private func indexSize(_ root: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: root + "/.git/index")[.size] as? Int) ?? 0
    }

    private func sharedIndexes(_ root: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: root + "/.git").filter { $0.hasPrefix("sharedindex.") })
    }
}
