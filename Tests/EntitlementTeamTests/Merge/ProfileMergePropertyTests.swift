import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// The merge invariants over generated profiles: a base and two random edits of it.
    @Suite(.tags(.unit))
    struct ProfileMergePropertyTests {
        static let seeds: [UInt64] = Array(1...200)

        /// (base, ours, theirs) for one seed; every tenth case has no common ancestor.
        static func sides(_ seed: UInt64) -> (Profile?, Profile, Profile) {
            var generator = MergeProfileGenerator(seed: seed)
            let base = generator.profile()
            let ours = generator.edit(base), theirs = generator.edit(base)
            return (seed % 10 == 0 ? nil : base, ours, theirs)
        }

        static func keys(_ profile: Profile) -> Set<String> {
            Set(profile.transactions.map { "\($0.store.rawValue) \($0.transactionID)" })
        }

        @Test func mergeIsCommutativeToTheByte() throws {
            for seed in Self.seeds {
                let (base, ours, theirs) = Self.sides(seed)
                #expect(try Merge.merged(base, ours, theirs) == Merge.merged(base, theirs, ours), "seed \(seed)")
            }
        }

        @Test func mergingAFileWithItselfChangesNothing() throws {
            for seed in Self.seeds {
                let (base, ours, _) = Self.sides(seed)
                #expect(try Merge.merged(base, ours, ours) == Merge.bytes(ours), "seed \(seed)")
                #expect(try Merge.merged(nil, ours, ours) == Merge.bytes(ours), "seed \(seed)")
            }
        }

        @Test func withoutAncestorMergeIsAssociative() throws {
            for seed in Self.seeds {
                var generator = MergeProfileGenerator(seed: seed &* 7919)
                let origin = generator.profile()
                let a = generator.edit(origin), b = generator.edit(origin), c = generator.edit(origin)
                let left = try Merge.mergedProfile(nil, Merge.mergedProfile(nil, a, b), c)
                let right = try Merge.mergedProfile(nil, a, Merge.mergedProfile(nil, b, c))
                #expect(Merge.text(left) == Merge.text(right), "seed \(seed)")
            }
        }

        /// Merging a side again into a result that already holds it changes nothing
        /// (a stale branch merged twice, or a replica that syncs once more).
        @Test func mergingASideIntoItsOwnResultChangesNothing() throws {
            for seed in Self.seeds {
                let (base, ours, theirs) = Self.sides(seed)
                let merged = try Merge.mergedProfile(base, ours, theirs)
                #expect(try Merge.merged(base, ours, merged) == Merge.bytes(merged), "seed \(seed)")
                #expect(try Merge.merged(base, merged, theirs) == Merge.bytes(merged), "seed \(seed)")
            }
        }

        @Test func noTransactionIsLost() throws {
            for seed in Self.seeds {
                let (base, ours, theirs) = Self.sides(seed)
                let merged = try Merge.mergedProfile(base, ours, theirs)
                #expect(Self.keys(merged) == Self.keys(ours).union(Self.keys(theirs)), "seed \(seed)")
            }
        }

        @Test func aRevocationOnEitherSideStaysAndNeverMovesLater() throws {
            for seed in Self.seeds {
                let (base, ours, theirs) = Self.sides(seed)
                let merged = try Merge.mergedProfile(base, ours, theirs)
                for side in [ours, theirs] {
                    for transaction in side.transactions {
                        guard let revokedAt = transaction.revokedAt else { continue }
                        let result = Merge.transaction(merged, transaction.transactionID, store: transaction.store.rawValue)
                        #expect((result?.revokedAt).map { $0 <= revokedAt } == true, "seed \(seed): \(transaction.transactionID)")
                    }
                }
            }
        }

        @Test func oneIdempotencyKeyGivesAccessAtMostOnce() throws {
            var duplicatesSeen = 0
            for seed in Self.seeds {
                let (base, ours, theirs) = Self.sides(seed)
                let merged = try Merge.mergedProfile(base, ours, theirs)
                let keyed = Dictionary(grouping: merged.transactions.filter { $0.idempotencyKey != nil }, by: { $0.idempotencyKey! })
                for (key, group) in keyed {
                    // From the merge's time on, whenever each was to start.
                    let giving = group.filter { transaction in transaction.revokedAt.map { $0 > Merge.stamp.at! } ?? true }
                    #expect(giving.count <= 1, "seed \(seed): key \(key)")
                    if group.count > 1 { duplicatesSeen += 1 }
                }
            }
            #expect(duplicatesSeen >= 5)  // the generator does make duplicates
        }

        @Test func unknownFieldsOnEitherSideSurviveWithoutAncestor() throws {
            for seed in Self.seeds {
                let (_, ours, theirs) = Self.sides(seed)
                let merged = try Merge.mergedProfile(nil, ours, theirs)
                for side in [ours, theirs] {
                    #expect(side.raw["x_team"] == nil || merged.raw["x_team"] != nil, "seed \(seed)")
                    for transaction in side.transactions where transaction.raw["x_note"] != nil {
                        #expect(Merge.transaction(merged, transaction.transactionID, store: transaction.store.rawValue)?.raw["x_note"] != nil, "seed \(seed)")
                    }
                    for (key, info) in side.renewalInfo where info.raw["x_r"] != nil {
                        #expect(merged.renewalInfo[key]?.raw["x_r"] != nil, "seed \(seed)")
                    }
                }
            }
        }

        @Test func theResultIsWhatTheToolWrites() throws {
            for seed in Self.seeds {
                let (base, ours, theirs) = Self.sides(seed)
                let bytes = try Merge.merged(base, ours, theirs)
                let reread = try Profile(json: JSONParser.parse(bytes))
                #expect(Merge.bytes(reread) == bytes, "seed \(seed)")
            }
        }
    }
}
