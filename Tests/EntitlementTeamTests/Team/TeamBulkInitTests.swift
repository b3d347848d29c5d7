import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// `init --git` of a plain store as one `git fast-import` bulk load at scale: the
/// same end state as `git add --all` and `git commit` gave.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct TeamBulkInitTests {
    @Test func theFirstCommitHoldsWhatGitAddWouldAndTheStoreWorksAsATeamStore() throws {
        let team = TeamFixture()
        _ = try Binary.runProgram("/usr/bin/env", ["git", "init", "--quiet", "--bare", team.remote], environment: team.environment)
        try FileManager.default.copyItem(atPath: demoStorePath, toPath: team.store("s0"))
        // Names git would quote, and a file `.gitignore` names (never committed).
        for user in ["quote\"d", "auth0|a b", "ünï", "back\\slash"] {
            #expect(try team.run(["grant", user, "premium", "--lifetime", "--actor", "Seed"], in: "s0").exitCode == 0)
        }
        try FileManager.default.createDirectory(atPath: team.store("s0") + "/.tmp", withIntermediateDirectories: true)
        try Data("ignored\n".utf8).write(to: URL(fileURLWithPath: team.store("s0") + "/.tmp/staged"))

        let converted = try team.run(["init", "--git", "--actor", "Ops <ops@example.com>"], in: "s0")
        #expect(converted.exitCode == 0, "\(converted.stderr)")
        // The tree `git add --all` makes of the same files, in an index of its own.
        let scratchIndex = team.directory.path + "/scratch-index"
        let add = try Binary.runProgram("/usr/bin/env", ["GIT_INDEX_FILE=\(scratchIndex)", "git", "-C", team.store("s0"), "add", "--all"], environment: team.environment)
        #expect(add.exitCode == 0, "\(add.stderr)")
        let expected = try Binary.runProgram("/usr/bin/env", ["GIT_INDEX_FILE=\(scratchIndex)", "git", "-C", team.store("s0"), "write-tree"], environment: team.environment).stdout
        #expect(try team.git(["rev-parse", "HEAD^{tree}"], in: "s0").stdout == expected)
        #expect(try !team.git(["ls-files"], in: "s0").stdout.contains(".tmp"))
        #expect(try team.git(["log", "--format=%an <%ae>|%cn <%ce>|%s|%P"], in: "s0").stdout == "Ops <ops@example.com>|Ops <ops@example.com>|make the store a team store|\n")
        // Clean and whole: nothing to commit, every object sound, verify clean. (An import this small
        // is unpacked into loose objects by fast-import itself: `fastimport.unpackLimit`, 100.)
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
        #expect(try team.git(["fsck", "--no-progress"], in: "s0").exitCode == 0)
        #expect(try team.run(["verify", "--quiet"], in: "s0").exitCode == 0)
        // The same set-up as before: private .git, hooks, private attributes, the driver, a split index.
        let git = team.store("s0") + "/.git"
        #expect(try permissions(git) == 0o700)
        #expect(try permissions(git + "/config") == 0o600)
        #expect(try String(contentsOfFile: git + "/hooks/pre-commit", encoding: .utf8).contains(GitIndex.hookMarker))
        #expect(try String(contentsOfFile: git + "/info/attributes", encoding: .utf8) == GitSetup.privateAttributes)
        #expect(try team.git(["config", "core.splitIndex"], in: "s0").stdout == "true\n")
        #expect(try team.git(["config", "merge.entitlement.driver"], in: "s0").stdout.contains("merge-driver"))

        // It syncs: pushed, cloned, changed on the clone, pulled back.
        try team.identify("s0")
        try team.git(["remote", "add", "origin", team.remote], in: "s0")
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try Binary.run(["clone", team.remote, "--store", team.store("s1")], environment: team.environment).exitCode == 0)
        try team.identify("s1")
        #expect(try team.run(["grant", "auth0|a b", "sports", "--duration", "1w", "--actor", "Ben"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["check", "auth0|a b", "sports", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
    }

    /// The index records each file as the load saw it, so git trusts it by stat (no second read
    /// of every file), and an edit made right after the conversion is still seen.
    @Test func theIndexHoldsEachFilesStatDataAndAnEditRightAfterIsStillSeen() throws {
        let team = TeamFixture()
        try FileManager.default.copyItem(atPath: demoStorePath, toPath: team.store("s0"))
        #expect(try team.run(["init", "--git", "--actor", "Ops"], in: "s0").exitCode == 0)
        let listing = try team.git(["ls-files", "--debug", "--", "profiles"], in: "s0").stdout
        let entries = listing.components(separatedBy: "\n").enumerated().filter { !$0.element.hasPrefix(" ") && !$0.element.isEmpty }
        #expect(entries.count >= 5)
        let lines = listing.components(separatedBy: "\n")
        for (index, path) in entries {
            let attributes = try FileManager.default.attributesOfItem(atPath: team.store("s0") + "/" + path)
            let inode = try #require(attributes[.systemFileNumber] as? Int)
            let size = try #require(attributes[.size] as? Int)
            #expect(lines[index + 3].contains("ino: \(inode)"), "\(path): \(lines[index + 3])")
            #expect(lines[index + 5].hasPrefix("  size: \(size)\t"), "\(path): \(lines[index + 5])")
        }
        #expect(try team.git(["config", "core.splitIndex"], in: "s0").stdout == "true\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: team.store("s0") + "/.git").contains { $0.hasPrefix("sharedindex.") }, "split at once")
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
        // The same size, written at once: only the content tells it apart.
        let first = team.store("s0") + "/" + entries[0].element
        var bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        let brace = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        bytes[brace] = UInt8(ascii: " ")
        bytes[bytes.count - 1] = UInt8(ascii: "}")
        try bytes.write(to: URL(fileURLWithPath: first))
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == " M \(entries[0].element)\n")
    }

    /// The fill gives, byte for byte, the index `git update-index --refresh` gives after
    /// `read-tree` (which hashes every file again to get there); a path it was not told of
    /// keeps empty stat data, which git checks by content.
    @Test func theStatFillEqualsGitsOwnRefresh() throws {
        let team = TeamFixture()
        let root = team.store("s0")
        let files = ["a.json", "b/c.json", "b/d e.json", "z"]
        for file in files {
            try FileManager.default.createDirectory(atPath: root + "/" + PathName.parent(of: file), withIntermediateDirectories: true)
            try Data("{\"\(file)\":1}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        for arguments in [["init", "--quiet"], ["add", "--all"], ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "x"]] {
            #expect(try team.git(arguments, in: "s0").exitCode == 0)
        }
        let repository = GitRepository(root: root, environment: team.environment)
        var fill = IndexStatFill()
        for file in files.dropLast() {
            fill.add(Array(file.utf8), try #require(try GitFiles.system.status(root + "/" + file)))
        }
        #expect(try team.git(["read-tree", "HEAD"], in: "s0").exitCode == 0)
        #expect(try fill.apply(in: repository))
        let filled = try team.git(["ls-files", "--debug"], in: "s0").stdout
        #expect(try team.git(["read-tree", "HEAD"], in: "s0").exitCode == 0)
        #expect(try team.git(["update-index", "-q", "--refresh"], in: "s0").exitCode == 0)
        let refreshed = try team.git(["ls-files", "--debug"], in: "s0").stdout
        let blocks = { (listing: String) in listing.components(separatedBy: "\n").split { !$0.hasPrefix(" ") }.map { $0.joined(separator: "\n") } }
        #expect(blocks(filled).prefix(3) == blocks(refreshed).prefix(3))
        #expect(blocks(filled)[3].contains("size: 0\t"), "z was not loaded: git reads it")
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
        // Not an index it fills (a split index): left alone.
        #expect(try team.git(["update-index", "--split-index"], in: "s0").exitCode == 0)
        #expect(try !fill.apply(in: repository))
    }

    @Test func pathsAreQuotedForFastImport() {
        #expect(GitBulkLoad.quoted("profiles/a.json") == "\"profiles/a.json\"")
        #expect(GitBulkLoad.quoted("a\"b\\c\nd\te") == "\"a\\\"b\\\\c\\nd\\011e\"")
    }

    private func permissions(_ path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0) & 0o777
    }
}
