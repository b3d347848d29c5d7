import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementTeam
import EntitlementTestSupport

/// A commit reads the trees along its changed paths through one `cat-file --batch`, one
/// request per level of folders, each folder asked for by the id its parent names: the
/// same trees `HEAD:folder` gives, without git walking from the root for each folder.
@Suite(.tags(.endToEnd))
struct HeadTreesTests {
    private func repository(_ files: [String], in directory: TemporaryDirectory) throws -> (GitRepository, ([String]) throws -> CLIResult) {
        let root = directory.path + "/r"
        let environment = ["GIT_CONFIG_GLOBAL": directory.path + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "HOME": directory.path]
        let git = { (arguments: [String]) throws -> CLIResult in try Binary.runProgram("/usr/bin/env", ["git", "-C", root] + arguments, environment: environment) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        #expect(try git(["init", "--quiet"]).exitCode == 0)
        for path in files {
            try FileManager.default.createDirectory(atPath: root + "/" + PathName.parent(of: path), withIntermediateDirectories: true)
            try Data("{\"path\":\"\(path)\"}\n".utf8).write(to: URL(fileURLWithPath: root + "/" + path))
        }
        if !files.isEmpty {
            #expect(try git(["add", "--all"]).exitCode == 0)
            #expect(try git(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "x"]).exitCode == 0)
        }
        return (GitRepository(root: root, environment: environment), git)
    }

    @Test func nestedFoldersAreReadOneLevelPerRequestByID() throws {
        let directory = TemporaryDirectory()
        // Two fan-out levels under profiles/, an index beside it, a file where a folder is asked for.
        var files = ["config.json", "index/profile-id/ab/x.json", "f"]
        for first in ["00", "01", "02"] { for second in ["00", "01"] { files.append("profiles/\(first)/\(second)/u\(first)\(second).json") } }
        let (repository, git) = try repository(files, in: directory)
        let asked = ["", "profiles", "profiles/00", "profiles/00/01", "profiles/02", "profiles/02/00", "profiles/02/07",
                     "index", "index/profile-id", "index/profile-id/ab", "f", "f/sub", "missing", "missing/deeper/still"]
        let read = try HeadTrees.read(asked, in: repository)
        #expect(read.head == (try git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(read.root == (try git(["rev-parse", "HEAD^{tree}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let present = ["", "profiles", "profiles/00", "profiles/00/01", "profiles/02", "profiles/02/00", "index", "index/profile-id", "index/profile-id/ab"]
        #expect(Set(read.trees.keys) == Set(present))
        for folder in present {
            let id = try git(["rev-parse", folder.isEmpty ? "HEAD^{tree}" : "HEAD:" + folder]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(read.trees[folder]?.id == id, "\(folder)")
        }
        // HEAD and its root; then profiles, index (f is a file, missing is absent); then
        // profiles/00, profiles/02, index/profile-id; then the three at the third level that
        // exist (profiles/02/07 is not in profiles/02; nothing is asked under f or missing).
        #expect(read.requests == [2, 2, 3, 3])
    }

    @Test func aRepositoryWithoutCommitsHasNoHead() throws {
        let directory = TemporaryDirectory()
        let (repository, _) = try repository([], in: directory)
        let read = try HeadTrees.read(["", "profiles", "profiles/00"], in: repository)
        #expect(read.head == nil)
        #expect(read.root == nil)
        #expect(read.trees.isEmpty)
        #expect(read.requests == [2])
    }

    /// A level of thousands of folders: the request (over 64 KiB) is written while the answer
    /// is read, so neither pipe fills and blocks; the answer is read whole.
    @Test(.timeLimit(.minutes(10)))
    func aLevelBiggerThanAPipeIsAskedAndAnsweredAtOnce() throws {
        let directory = TemporaryDirectory()
        let folders = (0..<2_000).map { String(format: "p/%04d", $0) }
        let (repository, _) = try repository(folders.map { $0 + "/x.json" }, in: directory)
        let read = try HeadTrees.read([""] + ["p"] + folders, in: repository)
        #expect(read.requests == [2, 1, 2_000])
        #expect(read.trees.count == 2_002)
        #expect(read.trees["p/1999"]?.entries["x.json"] != nil)
    }

    /// A session answers several exchanges and reports the child's exit.
    @Test(.timeLimit(.minutes(10)))
    func aSessionAnswersSeveralExchanges() throws {
        let session = try #require(Subprocess.Session(["cat"], environment: ["PATH": "/usr/bin:/bin"]))
        for round in 0..<3 {
            let request = Array(repeating: UInt8(ascii: "a") + UInt8(round), count: 200_000) + [0x0A]
            var answer: [UInt8] = []
            #expect(session.exchange(request, answer: &answer) { $0.count >= request.count })
            #expect(answer == request, "round \(round)")
        }
        let end = session.finish()
        #expect(end.status == 0)
        #expect(end.stdout.isEmpty)
        #expect(session.finish().status == 0, "finish twice returns the same")
    }
}
