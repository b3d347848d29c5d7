import Foundation
import Testing
@testable import EntitlementTeam
import EntitlementTestSupport

/// A commit of many files is written as one pack and its index, which git itself reads and
/// checks; a commit of a few stays loose objects.
@Suite(.tags(.endToEnd))
struct PackedCommitTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    /// Type in bits 6–4, size's low four bits, then seven bits a byte with the top bit as "more".
    @Test(arguments: [
        (3, 0, [0x30]), (3, 15, [0x3F]), (3, 16, [0xB0, 0x01]), (2, 2_047, [0xAF, 0x7F]),
        (1, 2_048, [0x90, 0x80, 0x01]), (3, 100_000, [0xB0, 0xEA, 0x30]),
    ] as [(UInt8, Int, [UInt8])])
    func entryHeadersFollowGitsVariableLengthSize(type: UInt8, size: Int, bytes: [UInt8]) {
        #expect(PackFile.entryHeader(type: type, size: size) == bytes)
    }

    /// Blobs of every size class (empty, one stored block, several blocks) and a tree, read back
    /// by git: `verify-pack` checks the pack's and index's checksums, every CRC and every object.
    @Test func gitVerifiesThePackAndReadsEveryObject() throws {
        let directory = TemporaryDirectory()
        let repository = directory.path + "/r"
        let git = { (arguments: [String]) throws -> CLIResult in try Binary.runProgram("/usr/bin/env", ["git", "-C", repository] + arguments) }
        _ = try Binary.runProgram("/usr/bin/env", ["git", "init", "--quiet", repository])
        var generator = SplitMix64(seed: 7)
        var writer = ObjectWriter(objectsDirectory: repository + "/.git/objects", durable: true)
        var blobs: [(id: String, content: [UInt8])] = []
        for index in 0..<ObjectWriter.packFromObjects {
            let length = [0, 1, 15, 16, 300, 65_535, 65_536, 140_000][index % 8] + index
            let content = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            blobs.append((writer.add(type: "blob", content: content), content))
        }
        var tree = GitTree()
        for (index, blob) in blobs.enumerated() { tree.entries["f\(index)"] = .init(mode: GitTree.fileMode, name: "f\(index)", id: blob.id) }
        let treeID = writer.add(type: "tree", content: tree.content)
        try writer.flush()

        let packs = try FileManager.default.contentsOfDirectory(atPath: repository + "/.git/objects/pack")
        #expect(packs.filter { $0.hasSuffix(".pack") }.count == 1)
        #expect(packs.filter { $0.hasSuffix(".idx") }.count == 1)
        #expect(packs.allSatisfy { $0.hasPrefix("pack-") }, "\(packs)")
        let index = try #require(packs.first { $0.hasSuffix(".idx") })
        let verify = try git(["verify-pack", "-v", repository + "/.git/objects/pack/" + index])
        #expect(verify.exitCode == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("non delta: \(blobs.count + 1) objects"), "\(verify.stdout.suffix(300))")
        for blob in blobs.prefix(12) {
            let shown = try Binary.runProgram("/bin/sh", ["-c", "git -C \"$1\" cat-file blob \"$2\" | od -An -v -tu1", "sh", repository, blob.id])
            #expect(shown.stdout.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0) } == blob.content)
        }
        #expect(try git(["ls-tree", treeID]).stdout.split(separator: "\n").count == blobs.count)
        #expect(try git(["count-objects", "-v"]).stdout.contains("garbage: 0"))
        #expect(try git(["fsck", "--strict", "--no-dangling"]).exitCode == 0)
    }

    /// A bulk grant of many customers is one commit in one new pack; one grant after it is a
    /// few loose objects; git finds both fine, and `gc` packs them together.
    @Test func aBulkGrantIsOnePackAndASingleGrantLooseObjects() throws {
        let team = try TeamFixture.team(of: 1)
        let pack = team.store("s0") + "/.git/objects/pack"
        let loose = { () throws -> Int in
            let counted = try team.git(["count-objects", "-v"], in: "s0").stdout
            return Int(counted.split(separator: "\n").first { $0.hasPrefix("count: ") }?.dropFirst(7) ?? "") ?? -1
        }
        let looseBefore = try loose()
        let packsBefore = try FileManager.default.contentsOfDirectory(atPath: pack).filter { $0.hasSuffix(".pack") }
        let ids = (0..<40).map { "bulk-\($0)" }.joined(separator: "\n") + "\n"
        let bulk = try team.run(["grant", "--stdin", "premium", "--duration", "1w", "--quiet"], in: "s0", stdin: ids)
        #expect(bulk.exitCode == 0, "\(bulk.stderr)")
        let packsAfter = try FileManager.default.contentsOfDirectory(atPath: pack).filter { $0.hasSuffix(".pack") }
        #expect(packsAfter.count == packsBefore.count + 1)
        // Every blob and tree of the bulk grant is in the pack; the one loose object is the
        // commit, which git's `commit-tree` writes.
        #expect(try loose() == looseBefore + 1)
        #expect(try team.run(["grant", "single", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try loose() > looseBefore + 2, "a single grant: its blobs and trees loose")
        #expect(try team.git(["fsck", "--strict"], in: "s0").exitCode == 0)
        #expect(try team.settledStatus(in: "s0").isEmpty)
        #expect(try team.git(["show", "--stat", "--format=%s", "HEAD~1"], in: "s0").stdout.contains("80 files changed"), "40 profiles and their 40 profile-id index entries")
        #expect(try team.run(["check", "bulk-39", "premium", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.git(["gc", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.git(["fsck", "--strict"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0, "the pack's objects push like any others")
        let clone = try Binary.run(["clone", team.remote, "--store", team.store("c")], environment: team.environment)
        #expect(clone.exitCode == 0, "\(clone.stderr)")
        #expect(try team.run(["check", "bulk-0", "premium", "--quiet"], in: "c").exitCode == 0)
    }
}
