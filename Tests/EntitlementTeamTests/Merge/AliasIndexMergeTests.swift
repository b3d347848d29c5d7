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

    /// Two clones that each learn an alias, or each record a transfer, keep both: the lists only grow.
    @Test func aliasesAndTransfersMergeAsUnions() throws {
        func profile(_ aliases: [String], _ transfers: [String]) -> Profile {
            Merge.profile(#"{"customer_user_id": "u1", "schema_version": 1, "aliases": [\#(aliases.map { "\"\($0)\"" }.joined(separator: ", "))], "#
                          + #""transfers": [\#(transfers.joined(separator: ", "))]}"#)
        }
        let early = #"{"at": "2026-01-02T00:00:00Z", "by": "dana", "direction": "out", "reason": "r", "to": "bob", "transactions": ["t1"]}"#
        let late = #"{"at": "2026-01-03T00:00:00.5Z", "by": "eve", "direction": "in", "from": "carol", "reason": "r", "transactions": ["t9"]}"#
        let base = profile(["old"], [])
        let ours = profile(["old", "x"], [late]), theirs = profile(["old", "$y"], [early])
        for merged in [try Merge.mergedProfile(base, ours, theirs), try Merge.mergedProfile(base, theirs, ours)] {
            #expect(merged.customerAliases == ["$y", "old", "x"])
            let transfers = try #require(merged.raw[IngestRecordKeys.transfers]?.arrayValue)
            #expect(transfers.compactMap { $0.objectValue?["by"]?.stringValue } == ["dana", "eve"])
        }
        #expect(try Merge.merged(base, ours, theirs) == (try Merge.merged(base, theirs, ours)))
    }
}
