import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// Merge reproductions at the level of the pure merge, with
    /// the merge's time derived from the sides as the driver does it.
    @Suite(.tags(.unit))
    struct MergeRulesTests {
        static let t0 = ISODate.parse("2026-05-01T09:00:00Z")!
        static let day: TimeInterval = 86_400
        static let engine = StatusEngine(configuration: ProductConfiguration(entitlements: [.init(id: "premium")]))

        static func grant(_ id: String, at granted: Date, starts: Date? = nil, days: Double, key: String? = nil, stackedOn: String? = nil) -> Transaction {
            let start = starts ?? granted
            var transaction = Transaction(transactionID: id, productID: nil, store: .manual, type: .manualGrant, purchasedAt: granted,
                                          startsAt: start == granted ? nil : start, expiresAt: start.addingTimeInterval(days * day))
            transaction.entitlement = "premium"
            transaction.grantedAt = granted
            transaction.grantedBy = "agent"
            transaction.idempotencyKey = key
            transaction.stackedOn = stackedOn
            return transaction
        }

        static func profile(_ transactions: [Transaction]) -> Profile {
            var profile = Profile(profileID: "p-c", customerUserID: "c", createdAt: t0)
            profile.transactions = transactions
            return profile
        }

        static let sam = MergeStamp(at: nil, actor: "Sam <sam@example.com>")

        @Test func aDuplicateKeyIsVoidFromTheMergeAndTheKeptGrantAnswers() throws {
            // y grants c 1w; x grants c 1m with OUT-1; y makes the same keyed grant, stacked after its first.
            let first = Self.grant("y1", at: Self.t0, days: 7)
            let kept = Self.grant("x1", at: Self.t0.addingTimeInterval(3600), days: 30, key: "OUT-1")
            let duplicate = Self.grant("y2", at: Self.t0.addingTimeInterval(7200), starts: first.expiresAt, days: 30, key: "OUT-1", stackedOn: "y1")
            let base = Self.profile([])
            let x = Self.profile([kept]), y = Self.profile([first, duplicate])
            let (merged, reviews) = try ProfileMerge.mergeReviewed(base: base, ours: y, theirs: x, stamp: Self.sam)
            let void = try #require(merged.transaction(id: "y2"))
            #expect(void.revokedAt == duplicate.grantedAt, "voided at the merge's time: the latest change either side recorded")
            #expect(void.revokedBy == "Sam <sam@example.com>")
            #expect(void.duplicateOf == "x1")
            #expect(reviews.map(\.kind) == [.duplicateVoided])
            // From the merge on, at any T, the kept grant answers: about 30 days, never 37.
            for offset in [0.1, 1, 8, 29] {
                let access = Self.engine.evaluate("premium", for: merged, at: Self.t0.addingTimeInterval(offset * Self.day)).accessLevel
                #expect(access.isActive && access.expiresAt == kept.expiresAt, "day \(offset)")
            }
            #expect(!Self.engine.evaluate("premium", for: merged, at: Self.t0.addingTimeInterval(31 * Self.day)).accessLevel.isActive)
            let event = try #require(HistoryEvent.events(of: merged).first { $0.kind == .revocation })
            #expect(event.reasonDescription == "duplicate of x1 (same idempotency key), voided by the merge")
            #expect(event.actor == "Sam <sam@example.com>")
            // Either way round, the same bytes.
            #expect(try Merge.merged(base, y, x, path: "profiles/c.json", stamp: Self.sam) == Merge.merged(base, x, y, path: "profiles/c.json", stamp: Self.sam))
        }

        @Test func aStackedGrantWhoseBaseWasRevokedConcurrentlyStartsAtTheRevocation() throws {
            let g1 = Self.grant("g1", at: Self.t0, days: 30)
            var revoked = g1
            revoked.revokedAt = Self.t0.addingTimeInterval(5 * Self.day)
            revoked.revokedBy = "Ana"
            revoked.revocationReason = "fraud"
            // Ben extends by 2w a day later, not knowing of the revocation: G2 waits for G1's end.
            let g2 = Self.grant("g2", at: Self.t0.addingTimeInterval(6 * Self.day), starts: g1.expiresAt, days: 14, stackedOn: "g1")
            let base = Self.profile([g1]), ana = Self.profile([revoked]), ben = Self.profile([g1, g2])
            let (merged, reviews) = try ProfileMerge.mergeReviewed(base: base, ours: ana, theirs: ben, stamp: Self.sam)
            let moved = try #require(merged.transaction(id: "g2"))
            #expect(moved.effectiveStart == g2.grantedAt, "the grant time, later than the revocation")
            #expect(moved.expiresAt == g2.grantedAt!.addingTimeInterval(14 * Self.day))
            #expect(moved.raw["moved_by_merge"]?.objectValue?["starts_at"] == .string(ISODate.format(g1.expiresAt!)))
            #expect(reviews.map(\.kind) == [.stackedGrantMoved])
            #expect(reviews.first?.customer == "c")
            let now = Self.engine.evaluate("premium", for: merged, at: Self.t0.addingTimeInterval(7 * Self.day)).accessLevel
            #expect(now.isActive && now.expiresAt == moved.expiresAt)
            #expect(try Merge.merged(base, ana, ben, path: "profiles/c.json", stamp: Self.sam) == Merge.merged(base, ben, ana, path: "profiles/c.json", stamp: Self.sam))
            // Merging the result with Ben's side again keeps the move and reports nothing new.
            let (again, more) = try ProfileMerge.mergeReviewed(base: ben, ours: merged, theirs: ben, stamp: Self.sam)
            #expect(again.transaction(id: "g2")?.effectiveStart == moved.effectiveStart)
            #expect(more.isEmpty)
        }

        @Test func aRevocationThatKnewTheStackedGrantMovesNothing() throws {
            let g1 = Self.grant("g1", at: Self.t0, days: 30)
            let g2 = Self.grant("g2", at: Self.t0.addingTimeInterval(Self.day), starts: g1.expiresAt, days: 14, stackedOn: "g1")
            var revoked = g1
            revoked.revokedAt = Self.t0.addingTimeInterval(5 * Self.day)
            revoked.revokedBy = "Ana"
            // Ana revoked only G1 (revoke --transaction) knowing G2; Ben changed something else.
            let ana = Self.profile([revoked, g2])
            var ben = Self.profile([g1, g2])
            ben.customAttributes = JSONObject([("plan", .string("team"))])
            let (merged, reviews) = try ProfileMerge.mergeReviewed(base: Self.profile([g1, g2]), ours: ana, theirs: ben, stamp: Self.sam)
            #expect(merged.transaction(id: "g2")?.effectiveStart == g1.expiresAt)
            #expect(reviews.isEmpty)
        }

        @Test func aMergeThatLeavesLessThanBothSidesIsReported() {
            let g1 = Self.grant("g1", at: Self.t0, days: 30), g2 = Self.grant("g2", at: Self.t0, days: 20)
            let ours = Self.profile([g1]), theirs = Self.profile([g2])
            var merged = Self.profile([g1, g2])
            merged.transactions[0].revokedAt = Self.t0
            merged.transactions[1].revokedAt = Self.t0
            let reviews = AccessComparison.reviews(ours: ours, theirs: theirs, merged: merged, engine: Self.engine, at: Self.t0.addingTimeInterval(Self.day))
            #expect(reviews.map(\.kind) == [.lessAccess])
            #expect(AccessComparison.reviews(ours: ours, theirs: theirs, merged: Self.profile([g1, g2]), engine: Self.engine, at: Self.t0.addingTimeInterval(Self.day)).isEmpty)
        }

        @Test func aStackedGrantRecordsWhatItWasStackedOn() throws {
            let now = Self.t0
            let first = try GrantPlanner.apply(GrantRequest(userID: "c", entitlement: "premium", term: .duration(GrantDuration(seconds: 7 * 86_400)), actor: "a"),
                                               to: nil, now: now, newTransactionID: "g1", newProfileID: "p")
            let second = try GrantPlanner.apply(GrantRequest(userID: "c", entitlement: "premium", term: .duration(GrantDuration(seconds: 86_400)), actor: "a"),
                                                to: first.profile, now: now, newTransactionID: "g2", newProfileID: "p")
            #expect(first.transaction.stackedOn == nil)
            #expect(second.transaction.stackedOn == "g1")
            #expect(second.transaction.json.objectValue?["stacked_on"] == .string("g1"))
        }
    }
}
