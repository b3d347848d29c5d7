import Foundation
import Glibc
import Testing
@testable import EntitlementBasics
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// After a commit, the split index's entry of each committed file is the one git itself
/// writes for it, with the blob id the committer computed: the index update takes that id
/// instead of reading and hashing the file a second time, and hashes it again only when the
/// file changed after the commit read it.
@Suite(.tags(.endToEnd))
struct CommittedIndexEntryTests {
    /// A repository with a split index and a few files in nested folders, committed by git.
    private func repository(in directory: TemporaryDirectory) throws -> (root: String, repository: GitRepository, git: ([String]) throws -> CLIResult) {
        let root = directory.path + "/r"
        let environment = ["GIT_CONFIG_GLOBAL": directory.path + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "HOME": directory.path]
        let git = { (arguments: [String]) throws -> CLIResult in try Binary.runProgram("/usr/bin/env", ["git", "-C", root] + arguments, environment: environment) }
        for path in ["profiles/00/01/a.json", "profiles/00/02/b.json", "profiles/07/01/c.json", "config.json"] {
            try FileManager.default.createDirectory(atPath: root + "/" + PathName.parent(of: path), withIntermediateDirectories: true)
            try Data("{\"path\":\"\(path)\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + path))
        }
        for arguments in [["init", "--quiet"], ["config", "core.splitIndex", "true"], ["add", "--all"],
                          ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "x"]] {
            let result = try git(arguments)
            try #require(result.exitCode == 0, "\(arguments): \(result.stderr)")
        }
        return (root, GitRepository(root: root, environment: environment), git)
    }

    @Test func theEntryOfEachCommittedFileIsTheOneGitWrites() throws {
        let directory = TemporaryDirectory()
        let (root, repository, git) = try repository(in: directory)
        let changed = ["profiles/00/01/a.json", "profiles/07/01/c.json", "profiles/07/09/new.json"]
        for (index, path) in changed.enumerated() {
            try FileManager.default.createDirectory(atPath: root + "/" + PathName.parent(of: path), withIntermediateDirectories: true)
            try Data("{\"changed\":\(index)}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + path))
        }
        let commit = try GitCommitter(repository: repository, durable: false)
            .commit(paths: changed, message: "change three", author: GitIdentity(name: "T", email: "t@example.com"))
        #expect(commit != nil)
        // The tool wrote these entries into the small file (not left to git's update-index).
        let indexBytes = try #require(try GitFiles.read(root + "/.git/index"))
        let small = try #require(SplitIndexFile(indexBytes))
        #expect(small.link.count >= 20)
        // The new file as a named entry; the two changed ones as git writes them, replacing their
        // shared entries by position (config.json, a, b, c: positions 1 and 3).
        var written = Dictionary(uniqueKeysWithValues: small.named.map { (String(decoding: $0.name, as: UTF8.self), $0.raw) })
        #expect(Array(written.keys) == ["profiles/07/09/new.json"])
        #expect(small.bitmaps?.replaced == [1, 3])
        #expect(small.bitmaps?.deleted == [])
        for (path, raw) in zip(["profiles/00/01/a.json", "profiles/07/01/c.json"], small.replaced) { written[path] = raw }
        for path in changed {
            let raw = try #require(written[path], "\(path): written by the tool, not left to git")
            let blob = try git(["rev-parse", "HEAD:" + path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(SHA1.hex(Array(raw[40..<60])) == blob)
        }
        // The stage line (mode, blob id) and the stat data of each entry; not the in-memory flags
        // `--debug` prints beside the size, which depend on how git came to read the entry.
        let entries = { () throws -> String in
            try git(["ls-files", "--stage", "--debug", "--"] + changed).stdout.split(separator: "\n")
                .map { $0.replacing(/\tflags: [0-9a-f]+$/, with: "") }.joined(separator: "\n")
        }
        let ours = try entries()
        #expect(!ours.isEmpty)
        #expect(try git(["status", "--porcelain"]).stdout == "")
        #expect(try git(["diff-index", "--cached", "HEAD"]).stdout == "")
        // Git's own entries for the same files: removed, then added again from the files.
        for path in changed {
            #expect(try git(["update-index", "--force-remove", "--", path]).exitCode == 0)
            #expect(try git(["update-index", "--add", "--", path]).exitCode == 0)
        }
        let gits = try entries()
        #expect(gits == ours, "git's:\n\(gits)\nthe tool's:\n\(ours)")
        #expect(try git(["fsck", "--strict", "--no-dangling"]).exitCode == 0)
    }

    /// The committer's blob id is taken only for the file it read: the sentinel id below is
    /// used while the file's stat data are unchanged (so the file is not read again), and a
    /// file replaced after the read is read and hashed, as git would.
    @Test func theCommittersBlobIDIsUsedOnlyForTheFileItRead() throws {
        let directory = TemporaryDirectory()
        let (root, repository, _) = try repository(in: directory)
        let path = "profiles/00/01/a.json"
        let read = try #require(try FileSystem.system.readFileAndStatus(root + "/" + path))
        let sentinel = String(repeating: "5a", count: 20)
        let hashed = SplitIndexUpdate.HashedFile(status: read.status, id: sentinel)
        let entry = try #require(try SplitIndexUpdate.entry(for: path, in: repository, hashed: hashed))
        #expect(Array(entry[40..<60]) == GitTree.bytes(hex: sentinel), "not read and hashed again")
        let plain = try #require(try SplitIndexUpdate.entry(for: path, in: repository))
        #expect(Array(plain[0..<40]) == Array(entry[0..<40]), "the same stat data either way")
        #expect(SHA1.hex(Array(plain[40..<60])) == SHA1.objectID(type: "blob", content: read.bytes))

        // Replaced after the commit read it (a new file, so a new inode): hashed again.
        let replacement = Array("{\"replaced\":true}\n".utf8)
        try Data(replacement).write(to: URL(fileURLWithPath: root + "/" + path + ".new"))
        #expect(rename(root + "/" + path + ".new", root + "/" + path) == 0)
        let after = try #require(try SplitIndexUpdate.entry(for: path, in: repository, hashed: hashed))
        #expect(SHA1.hex(Array(after[40..<60])) == SHA1.objectID(type: "blob", content: replacement))
        #expect(Array(after[0..<40]) != hashed.statData)
    }
}
