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

        @Test func looseObjectWriterChecksEachObjectOnce() throws {
            let directory = TemporaryDirectory()
            var writer = LooseObjectWriter(objectsDirectory: directory.path + "/objects", durable: false)
            let count = 20_000
            var ids: Set<String> = []
            for index in 0..<count { ids.insert(writer.add(type: "blob", content: Array("blob \(index % (count / 2))\n".utf8))) }
            // Half repeat an earlier object: the pending set finds them without a scan.
            #expect(ids.count == count / 2)
            #expect(writer.examined == count)
            try writer.flush()
            #expect(FileManager.default.fileExists(atPath: directory.path + "/objects/" + ids.first!.prefix(2) + "/" + ids.first!.dropFirst(2)))
        }
    }
}
