import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

/// An alias index entry (`index/alias/…`, one customer user id) through the merge driver:
/// the side that changed it wins, both sides: the greater id, the same on every clone.
@Suite(.tags(.unit))
struct AliasIndexMergeTests {
    @Test(arguments: [
        (base: "alice", ours: "alice", theirs: "bob", merged: "bob"),
        (base: "alice", ours: "carol", theirs: "alice", merged: "carol"),
        (base: "", ours: "alice", theirs: "bob", merged: "bob"),
        (base: "", ours: "bob", theirs: "alice", merged: "bob"),
        (base: "", ours: "alice", theirs: "alice", merged: "alice"),
    ])
    func mergeDriverSettlesAnAliasEntry(_ item: (base: String, ours: String, theirs: String, merged: String)) throws {
        let merged = try StoreFileMerge.merge(path: "index/alias/ab/cd/old-alice", base: Array(item.base.utf8), ours: Array(item.ours.utf8),
                                              theirs: Array(item.theirs.utf8), stamp: MergeStamp(at: demoDate) { "tester" })
        #expect(String(decoding: merged, as: UTF8.self) == item.merged)
    }
}
