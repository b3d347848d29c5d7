import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// The engine's work, counted (never timed), grows as
    /// n log n in a profile's transactions, wherever the evaluation time falls in a long
    /// renewal chain, and each entitlement of a profile with thousands looks only at its own.
    ///
    /// Each size is 4× the last: n log n grows about 4.5× a step, n² 16×. A step under
    /// 6× over 1k to 64k transactions is n log n; the bound per transaction catches a
    /// constant that grew instead.
    struct EngineWorkTests {
        typealias F = Fixture
        static let sizes = [1_024, 4_096, 16_384, 65_536]
        static let base = F.date("2020-01-01T00:00:00Z")

        /// One subscription renewed `count` times, an hour a period, with renewal info.
        static func chain(_ count: Int) -> Profile {
            var transactions: [Transaction] = []
            transactions.reserveCapacity(count)
            for index in 0..<count {
                let start = base.addingTimeInterval(Double(index) * 3_600)
                transactions.append(Transaction(transactionID: "t\(index)", originalTransactionID: "t0", productID: F.monthly, store: .appStore,
                                                type: index == 0 ? .subscriptionStarted : .subscriptionRenewed, purchasedAt: start,
                                                expiresAt: start.addingTimeInterval(3_600)))
            }
            return F.profile(transactions, renewals: ["t0": RenewalInfo(willRenew: true)])
        }

        /// Back-to-back manual grants stored latest first: each carries the previous one's access on.
        static func reversedGrants(_ count: Int) -> Profile {
            F.profile((0..<count).reversed().map { index in
                let start = base.addingTimeInterval(Double(index) * 3_600)
                var grant = Transaction(transactionID: "g\(index)", productID: nil, store: .manual, type: .manualGrant, purchasedAt: base,
                                        startsAt: start, expiresAt: start.addingTimeInterval(3_600))
                grant.entitlement = "premium"
                grant.grantedAt = base
                return grant
            })
        }

        /// The steps `body` counts for each size.
        static func steps(_ body: (Int, StatusEngine) -> Void) -> [Int] {
            sizes.map { size in
                var engine = F.engine
                let counter = WorkCounter()
                engine.counter = counter
                body(size, engine)
                return counter.steps
            }
        }

        static func expectNLogN(_ steps: [Int], perTransaction bound: Double, sourceLocation: SourceLocation = #_sourceLocation) {
            print("engine work for \(sizes): \(steps) steps")
            for (smaller, larger) in zip(steps, steps.dropFirst()) {
                #expect(Double(larger) < 6 * Double(smaller), "work grew \(Double(larger) / Double(smaller))×: \(steps)", sourceLocation: sourceLocation)
            }
            for (size, count) in zip(sizes, steps) {
                #expect(Double(count) < bound * Double(size) * log2(Double(size)), "\(count) steps for \(size)", sourceLocation: sourceLocation)
            }
        }

        @Test(arguments: ["middle", "end"])
        func longChainIsNLogN(at position: String) {
            let steps = Self.steps { size, engine in
                let hours = position == "middle" ? size / 2 : size - 1
                let date = Self.base.addingTimeInterval(Double(hours) * 3_600 + 1_800)
                let evaluation = engine.evaluate("premium", for: Self.chain(size), at: date)
                #expect(evaluation.accessLevel.state == .active)
                #expect(evaluation.accessLevel.transactionID == "t\(hours)")
                #expect(evaluation.ignored.count == size - 1 - hours)
            }
            Self.expectNLogN(steps, perTransaction: 2)
        }

        @Test func statusOfALongChainIsNLogN() {
            // Several entitlements: the indexed basis, as `status` uses it.
            let steps = Self.steps { size, engine in
                let date = Self.base.addingTimeInterval(Double(size / 2) * 3_600 + 1_800)
                let levels = engine.accessLevels(for: Self.chain(size), at: date)
                #expect(levels.map(\.state) == [.active, .never])
            }
            Self.expectNLogN(steps, perTransaction: 2)
        }

        @Test func chainedGrantsInReverseOrderAreNLogN() {
            let steps = Self.steps { size, engine in
                let level = engine.evaluate("premium", for: Self.reversedGrants(size), at: Self.base.addingTimeInterval(60)).accessLevel
                #expect(level.transactionID == "g0")
                #expect(level.expiresAt == Self.base.addingTimeInterval(Double(size) * 3_600))
            }
            Self.expectNLogN(steps, perTransaction: 2)
        }
    }
}
