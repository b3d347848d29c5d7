import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// Revocation and restore are one ordered record per transaction;
    /// random three-way merges never undo a restore, never lose a standing revocation,
    /// and merge(A, B) == merge(B, A) to the byte.
    @Suite(.tags(.unit))
    struct RestoreMergePropertyTests {
        static let start = ISODate.parse("2026-03-01T00:00:00Z")!
        static let grant = """
            {"transaction_id": "g1", "store": "manual", "type": "manual_grant", "entitlement": "premium",
             "purchased_at": "2026-03-01T00:00:00Z", "granted_at": "2026-03-01T00:00:00Z", "granted_by": "dana"}
            """

        /// A profile holding `transaction` and, when `extra`, one more grant made on that side.
        static func profile(_ transaction: JSONObject, extra: String? = nil) -> Profile {
            var items: [JSONValue] = [.object(transaction)]
            if let extra {
                items.append(.object(JSONObject([("transaction_id", .string(extra)), ("store", .string("manual")), ("type", .string("manual_grant")),
                                                 ("entitlement", .string("sports")), ("purchased_at", .string("2026-03-02T00:00:00Z"))])))
            }
            return try! Profile(json: .object(JSONObject([("customer_user_id", .string("u1")), ("profile_id", .string("p1")), ("transactions", .array(items))])))
        }

        static func revoke(_ transaction: inout JSONObject, at: Date, by actor: String) {
            guard transaction["revoked_at"] == nil else { return }
            transaction["revoked_at"] = .string(ISODate.format(at))
            transaction["revoked_by"] = .string(actor)
            transaction["revocation_reason"] = .string("by \(actor)")
        }

        static func restore(_ transaction: inout JSONObject, at: Date, by actor: String) {
            guard let revokedAt = transaction["revoked_at"] else { return }
            var entry = JSONObject([("revoked_at", revokedAt), ("restored_at", .string(ISODate.format(at))), ("restored_by", .string(actor))])
            entry["revoked_by"] = transaction["revoked_by"]
            entry["revocation_reason"] = transaction["revocation_reason"]
            transaction["restored_revocations"] = .array((transaction["restored_revocations"]?.arrayItems ?? []) + [.object(entry)])
            for key in ["revoked_at", "revoked_by", "revocation_reason"] { transaction[key] = nil }
        }

        static func instants(_ transaction: Transaction) -> Set<Date> { Set(transaction.restoredRevocations.map(\.revokedAt)) }

        @Test func theIssuesReproductionKeepsTheRestore() throws {
            var revoked = try JSONParser.parse(Array(Self.grant.utf8)).objectValue!
            Self.revoke(&revoked, at: Self.start.addingTimeInterval(3600), by: "ana")
            var restored = revoked
            Self.restore(&restored, at: Self.start.addingTimeInterval(7200), by: "ben")
            // A revoked and synced; B restored; A granted something else; B syncs.
            let base = Self.profile(revoked), ours = Self.profile(restored), theirs = Self.profile(revoked, extra: "g2")
            let merged = try Merge.mergedProfile(base, ours, theirs)
            #expect(merged.transaction(id: "g1")?.revokedAt == nil)
            #expect(merged.transaction(id: "g2") != nil)
            #expect(HistoryEvent.events(of: merged).filter { $0.kind == .revocation }.count == 1)
            #expect(try Merge.merged(base, theirs, ours) == Merge.merged(base, ours, theirs))
        }

        @Test(arguments: 0..<300)
        func randomMergesNeverUndoARestore(seed: Int) throws {
            var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
            var clock = Self.start
            func tick() -> Date { clock = clock.addingTimeInterval(Double(1 + random.next() % 5) * 3600); return clock }
            func step(_ transaction: inout JSONObject, _ actor: String) {
                if random.next() % 2 == 0 { Self.revoke(&transaction, at: tick(), by: actor) } else { Self.restore(&transaction, at: tick(), by: actor) }
            }
            var base = try JSONParser.parse(Array(Self.grant.utf8)).objectValue!
            for _ in 0..<(random.next() % 4) { step(&base, "setup") }
            var ours = base, theirs = base
            for _ in 0..<(1 + random.next() % 6) {
                if random.next() % 2 == 0 { step(&ours, "ana") } else { step(&theirs, "ben") }
            }
            let a = Self.profile(ours, extra: random.next() % 3 == 0 ? "a2" : nil), b = Self.profile(theirs, extra: random.next() % 3 == 0 ? "b2" : nil)
            let bytes = try Merge.merged(Self.profile(base), a, b)
            #expect(try Merge.merged(Self.profile(base), b, a) == bytes, "merge(A,B) == merge(B,A)")
            let merged = try Profile(json: JSONParser.parse(bytes)).transaction(id: "g1")!
            let left = a.transaction(id: "g1")!, right = b.transaction(id: "g1")!
            // Every restore either side made is kept, and none is undone.
            let restored = Self.instants(left).union(Self.instants(right))
            #expect(Self.instants(merged) == restored)
            if let at = merged.revokedAt { #expect(!restored.contains(at), "a restored revocation came back") }
            // A revocation nobody restored stands (the earliest, when both sides made one).
            let standing = [left.revokedAt, right.revokedAt].compactMap { $0 }.filter { !restored.contains($0) }
            #expect(merged.revokedAt == standing.min())
        }
    }
}
