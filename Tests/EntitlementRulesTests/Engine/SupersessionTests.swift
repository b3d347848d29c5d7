import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// Within one subscription, a new transaction ends the period it interrupts.
    struct SupersessionTests {
        typealias F = Fixture

        /// A yearly plan upgraded on 2025-03-01 to a monthly plan of the same subscription.
        static let upgraded = [
            F.purchase("y1", product: F.annual, from: "2025-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z", original: "y1"),
            F.purchase("m2", type: .subscriptionRenewed, from: "2025-03-01T00:00:00Z", to: "2025-04-01T00:00:00Z", original: "y1"),
        ]

        @Test func anUpgradedYearlyPlanStopsAtTheUpgrade() {
            let after = F.engine.evaluate("premium", for: F.profile(Self.upgraded), at: F.date("2025-05-01T00:00:00Z"))
            #expect(after.accessLevel.state == .expired)
            #expect(after.accessLevel.expiresAt == F.date("2025-04-01T00:00:00Z"))
            #expect(after.considerations[0].verdict == .superseded(by: "m2", at: F.date("2025-03-01T00:00:00Z")))
            #expect(after.considerations[0].verdict.rule == "superseded by m2 at 2025-03-01T00:00:00Z")
            let during = F.level(Self.upgraded, at: "2025-03-15T00:00:00Z")
            #expect(during.state == .active && during.transactionID == "m2")
            #expect(during.expiresAt == F.date("2025-04-01T00:00:00Z"), "the yearly plan no longer carries the end on")
            let before = F.level(Self.upgraded, at: "2025-02-01T00:00:00Z")
            #expect(before.state == .active && before.transactionID == "y1")
            #expect(before.expiresAt == F.date("2026-01-01T00:00:00Z"), "the upgrade was not recorded yet")
        }

        @Test func theSportsEntitlementOfTheOldPlanEndsToo() {
            // annual unlocks sports; the monthly plan that replaced it does not.
            let level = F.level(Self.upgraded, entitlement: "sports", at: "2025-03-15T00:00:00Z")
            #expect(level.state == .expired && level.expiresAt == F.date("2025-03-01T00:00:00Z"))
        }

        @Test func separateSubscriptionsStillCompete() {
            let other = F.purchase("y9", product: F.annual, from: "2025-03-01T00:00:00Z", to: "2026-03-01T00:00:00Z", original: "y9")
            let level = F.level([Self.upgraded[0], F.purchase("m9", from: "2025-03-01T00:00:00Z", to: "2025-04-01T00:00:00Z", original: "m9"), other],
                                at: "2025-05-01T00:00:00Z")
            #expect(level.state == .active && level.transactionID == "y9")
        }

        @Test func anUpgradeWhoseSuccessorIsUnknownGivesNoAccess() {
            var yearly = Self.upgraded[0]
            yearly.isUpgraded = true
            let evaluation = F.engine.evaluate("premium", for: F.profile([yearly]), at: F.date("2025-05-01T00:00:00Z"))
            #expect(evaluation.accessLevel.state == .expired)
            #expect(evaluation.considerations[0].verdict == .superseded(by: nil, at: nil))
        }

        @Test func renewalsSupersedeNothing() {
            let renewals = F.monthlyRenewals
            let supersessions = Supersession.all(in: F.profile(renewals))
            #expect(supersessions.isEmpty)
            #expect(F.level(renewals, at: "2025-04-15T00:00:00Z").expiresAt == F.date("2025-05-01T00:00:00Z"))
        }

        /// The rule in general: no transaction gives access at T when a later transaction
        /// of its subscription had started by T.
        @Test func nothingGivesAccessPastTheStartOfItsSuccessor() {
            var random = SplitMix64(seed: 2_0250_301)
            for _ in 0..<300 {
                let profile = ProfileGenerator.profile(&random)
                let at = ProfileGenerator.instant(&random)
                let known = profile.asKnown(at: at).profile
                for entitlement in ["premium", "sports"] {
                    for consideration in F.engine.evaluate(entitlement, for: profile, at: at).considerations where consideration.verdict.givesAccess {
                        let mine = consideration.transaction
                        let successor = known.transactions.first {
                            $0.originalTransactionID == mine.originalTransactionID && $0.type != .consumablePurchase && !$0.isManualGrant
                                && $0.effectiveStart > mine.effectiveStart && $0.effectiveStart <= at && $0.effectiveStart < (mine.expiresAt ?? .distantFuture)
                        }
                        #expect(successor == nil, "\(mine.transactionID) gives access at \(ISODate.format(at)) after \(successor?.transactionID ?? "")")
                    }
                }
            }
        }
    }
}
