import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `--at T` means "as known at T": only records made by T count. (What `status` and
    /// `--explain` print of it: `AsKnownAtRenderingTests`.)
    struct AsKnownAtTests {
        typealias F = Fixture

        /// Monthly renewals c1 (Jan) to c4 (Apr) of one subscription.
        static let renewals = F.monthlyRenewals

        @Test func aLaterRenewalDoesNotLeakIntoThePast() {
            let level = F.level(Self.renewals, at: "2025-02-15T00:00:00Z")
            #expect(level.state == .active)
            #expect(level.expiresAt == F.date("2025-03-01T00:00:00Z"))
            #expect(level.transactionID == "c2")
            let evaluation = F.engine.evaluate("premium", for: F.profile(Self.renewals), at: F.date("2025-02-15T00:00:00Z"))
            #expect(evaluation.considerations.map(\.transaction.transactionID) == ["c1", "c2"], "c3 and c4 were not recorded yet")
            #expect(evaluation.ignored.map(\.subject) == ["c3", "c4"])
        }

        @Test func aLaterPurchaseDoesNotEndAGracePeriod() {
            let lapsed = F.purchase("g1", from: "2025-02-01T00:00:00Z", to: "2025-03-01T00:00:00Z", original: "g1")
            let resubscribed = F.purchase("g2", type: .subscriptionRenewed, from: "2025-03-20T00:00:00Z", to: "2025-04-20T00:00:00Z", original: "g1")
            let renewal = ["g1": RenewalInfo(willRenew: true, billingIssueDetectedAt: F.date("2025-03-01T00:00:00Z"),
                                             gracePeriodExpiresAt: F.date("2025-03-17T00:00:00Z"), isInBillingRetry: true)]
            let alone = F.level([lapsed], renewals: renewal, at: "2025-03-10T00:00:00Z")
            let withLater = F.level([lapsed, resubscribed], renewals: renewal, at: "2025-03-10T00:00:00Z")
            #expect(alone.state == .gracePeriod && alone.isActive)
            #expect(withLater == alone)
            #expect(F.level([lapsed, resubscribed], renewals: renewal, at: "2025-03-20T00:00:00Z").state == .active)
        }

        @Test func anUpgradeRecordedLaterIsNotKnownYet() {
            var yearly = F.purchase("u1", from: "2025-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z", original: "u1")
            yearly.isUpgraded = true
            let upgrade = F.purchase("u2", type: .subscriptionRenewed, from: "2025-06-01T00:00:00Z", to: "2026-06-01T00:00:00Z", original: "u1")
            let before = F.level([yearly, upgrade], at: "2025-03-01T00:00:00Z")
            #expect(before.state == .active && before.transactionID == "u1")
            #expect(before.expiresAt == F.date("2026-01-01T00:00:00Z"))
            #expect(F.level([yearly, upgrade], at: "2025-06-01T00:00:00Z").transactionID == "u2")
            #expect(F.level([yearly], at: "2025-03-01T00:00:00Z").state != .active, "the replacing transaction is in no profile: replaced")
        }

        @Test func beforeTheFirstPurchaseIsNever() {
            let evaluation = F.engine.evaluate("premium", for: F.profile(Self.renewals), at: F.date("2024-12-31T23:59:59Z"))
            #expect(evaluation.accessLevel == AccessLevel(id: "premium", state: .never))
            #expect(evaluation.decision == "nothing that unlocks this entitlement was recorded by then")
            #expect(evaluation.ignored.count == 4)
        }

        @Test func aGrantRecordedBeforeTThatStartsLaterIsScheduled() {
            let grant = F.grant("m1", from: "2025-01-10T00:00:00Z", starts: "2025-02-01T00:00:00Z", to: "2025-03-01T00:00:00Z")
            #expect(F.level([grant], at: "2025-01-15T00:00:00Z").state == .scheduled)
            #expect(F.level([grant], at: "2025-01-09T00:00:00Z").state == .never)
        }

        @Test func renewalFactsCountFromTheirOwnDates() {
            let renewal = ["c1": RenewalInfo(willRenew: false, unsubscribedAt: F.date("2025-03-05T00:00:00Z"))]
            let before = F.level(Self.renewals, renewals: renewal, at: "2025-02-15T00:00:00Z")
            #expect(before.willRenew && before.unsubscribedAt == nil && before.renewState == .willRenew, "auto-renew was still on")
            let after = F.level(Self.renewals, renewals: renewal, at: "2025-03-10T00:00:00Z")
            #expect(!after.willRenew && after.unsubscribedAt == F.date("2025-03-05T00:00:00Z") && after.renewState == .canceled)
        }

        @Test func aLaterRevocationIsNotKnownYet() {
            var refunded = Self.renewals
            refunded[1].revokedAt = F.date("2025-02-20T00:00:00Z")
            refunded[1].revocationReason = "refunded"
            #expect(F.level(refunded, at: "2025-02-15T00:00:00Z") == F.level(Self.renewals, at: "2025-02-15T00:00:00Z"))
            #expect(F.level(refunded, at: "2025-02-20T00:00:00Z").state == .revoked)
        }

        /// The property: adding any record made after T never changes any field of the answer at T.
        @Test func recordsMadeAfterTNeverChangeTheAnswerAtT() {
            var random = SplitMix64(seed: 9_2025)
            for _ in 0..<300 {
                let profile = ProfileGenerator.profile(&random)
                for _ in 0..<8 {
                    let at = ProfileGenerator.instant(&random)
                    let extended = ProfileGenerator.addingRecords(after: at, to: profile, &random)
                    for entitlement in ["premium", "sports"] {
                        let base = F.engine.evaluate(entitlement, for: profile, at: at).accessLevel
                        let later = F.engine.evaluate(entitlement, for: extended, at: at).accessLevel
                        #expect(base == later, "\(entitlement) at \(ISODate.format(at))")
                        if base != later { return }
                    }
                }
            }
        }
    }
}
