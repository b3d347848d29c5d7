import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// The merge driver's work follows an object's keys linearly (plus a
    /// sort), counted in operations, never timed.
    @Suite(.tags(.unit))
    struct MergeWorkTests {
        static func object(_ count: Int, changedEvery step: Int, tag: String) -> JSONObject {
            JSONObject((0..<count).map { index in ("k\(index)", .string(index % step == 0 ? "\(tag)\(index)" : "v\(index)")) })
        }

        @Test(arguments: [1_000, 4_000, 16_000])
        func objectMergeVisitsEachKeyOnce(keys: Int) {
            let base = Self.object(keys, changedEvery: keys + 1, tag: "")
            let ours = Self.object(keys, changedEvery: 7, tag: "a"), theirs = Self.object(keys, changedEvery: 5, tag: "b")
            var merger = ValueMerge(policy: .greaterWins)
            let merged = merger.mergeObjects(base: base, ours: ours, theirs: theirs, path: "")
            #expect(merged.entries.count == keys)
            #expect(merger.keysVisited == 3 * keys)
            // A key both sides changed: the greater value; one side's change: taken.
            #expect(merged.entries[35].value == .string("b35"))
            #expect(merged.entries[7].value == .string("a7"))
        }

        @Test func objectWriterChecksEachObjectOnce() throws {
            let directory = TemporaryDirectory()
            var writer = ObjectWriter(objectsDirectory: directory.path + "/objects", durable: false)
            let count = 20_000
            var ids: Set<String> = []
            for index in 0..<count { ids.insert(writer.add(type: "blob", content: Array("blob \(index % (count / 2))\n".utf8))) }
            // Half repeat an earlier object: the pending set finds them without a scan.
            #expect(ids.count == count / 2)
            #expect(writer.examined == count)
            try writer.flush()
            // That many are one pack, whose index's last fan-out entry counts its objects.
            let packs = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/objects/pack")
            let index = try #require(packs.first { $0.hasSuffix(".idx") })
            let bytes = try #require(FileManager.default.contents(atPath: directory.path + "/objects/pack/" + index))
            let total = bytes[(8 + 255 * 4)..<(8 + 256 * 4)].reduce(0) { $0 << 8 | Int($1) }
            #expect(total == count / 2)
        }
    }
}
