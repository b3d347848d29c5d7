import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// Grace period, billing retry, revoked versus expired, scheduled, never, and the winner rule.
    struct StatusEngineDecisionTests {
        typealias F = Fixture

        static let subscription = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")

        // MARK: Grace period

        @Test(arguments: [
            ("2026-02-05T00:00:00Z", AccessState.gracePeriod),
            ("2026-02-09T23:59:59.999Z", AccessState.gracePeriod),
            ("2026-02-10T00:00:00Z", AccessState.expired),  // grace ends exactly now: no longer in grace
            ("2026-01-20T00:00:00Z", AccessState.active),  // not expired yet: plain active
        ])
        func gracePeriodBoundaries(at: String, expected: AccessState) {
            let renewal = RenewalInfo(willRenew: true, gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            #expect(F.level([Self.subscription], renewals: ["t1": renewal], at: at).state == expected)
        }

        @Test func gracePeriodGivesAccessAndReportsItsEnd() {
            let renewal = RenewalInfo(willRenew: true, billingIssueDetectedAt: F.date("2026-02-01T00:00:00Z"),
                                      gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            let level = F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z")
            #expect(level.isActive)
            #expect(level.isInGracePeriod)
            #expect(level.gracePeriodExpiresAt == F.date("2026-02-10T00:00:00Z"))
            #expect(level.expiresAt == F.date("2026-02-01T00:00:00Z"))
        }

        @Test func graceAppliesOnlyToTheLatestTransactionOfTheSubscription() {
            // The renewal t2 was refunded; the grace recorded for the chain must not revive t1.
            let first = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let renewal = F.purchase("t2", type: .subscriptionRenewed, from: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z",
                                     original: "t1", revoked: "2026-02-02T00:00:00Z")
            let info = RenewalInfo(gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            let evaluation = F.engine.evaluate("premium", for: F.profile([first, renewal], renewals: ["t1": info]), at: F.date("2026-02-05T00:00:00Z"))
            #expect(evaluation.considerations[0].verdict == .expired(at: F.date("2026-02-01T00:00:00Z")))
            #expect(evaluation.accessLevel.state == .revoked)
            #expect(!evaluation.accessLevel.isActive)
        }

        @Test func gracePeriodWithoutRenewalInfoIsJustExpired() {
            #expect(F.level([Self.subscription], at: "2026-02-05T00:00:00Z").state == .expired)
        }

        // MARK: Billing retry

        @Test func expiredWhileTheStoreRetriesIsBillingRetry() {
            let renewal = RenewalInfo(willRenew: true, billingIssueDetectedAt: F.date("2026-02-01T00:00:00Z"), isInBillingRetry: true)
            let level = F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z")
            #expect(level.state == .billingRetry)
            #expect(!level.isActive)
            #expect(level.renewState == .billingIssue)
        }

        @Test func billingRetryInsideGraceIsGracePeriod() {
            let renewal = RenewalInfo(gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"), isInBillingRetry: true)
            #expect(F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z").state == .gracePeriod)
            #expect(F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-02-10T00:00:00Z").state == .billingRetry)
        }

        /// `will_renew` false (RevenueCat's on a billing issue) does not make a
        /// grace or retry period read `canceled`; outside them it still does.
        @Test(arguments: [
            ("2026-02-05T00:00:00Z", AccessState.gracePeriod, RenewState.billingIssue),
            ("2026-02-12T00:00:00Z", AccessState.billingRetry, RenewState.billingIssue),
            ("2026-01-20T00:00:00Z", AccessState.active, RenewState.canceled),
        ])
        func graceAndRetryOutlookIsBillingIssueEvenWhenWillRenewIsFalse(at: String, state: AccessState, renew: RenewState) {
            let renewal = RenewalInfo(willRenew: false, billingIssueDetectedAt: F.date("2026-01-10T00:00:00Z"),
                                      gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"), isInBillingRetry: true)
            let level = F.level([Self.subscription], renewals: ["t1": renewal], at: at)
            #expect(level.state == state)
            #expect(level.renewState == renew)
        }

        @Test func billingRetryFalseIsExpired() {
            let renewal = RenewalInfo(willRenew: false, isInBillingRetry: false)
            #expect(F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z").state == .expired)
        }

        @Test func billingRetryDoesNotApplyWhileActive() {
            let renewal = RenewalInfo(isInBillingRetry: true)
            #expect(F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-01-15T00:00:00Z").state == .active)
        }

        // MARK: Revoked or expired: the transaction whose access would end last decides

        @Test func revokedWinsWhenTheRevokedTransactionWouldHaveEndedLater() {
            let refunded = F.purchase("a", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", revoked: "2026-01-05T00:00:00Z")
            let lapsed = F.purchase("b", from: "2026-01-10T00:00:00Z", to: "2026-01-20T00:00:00Z")
            let level = F.level([refunded, lapsed], at: "2026-03-01T00:00:00Z")
            #expect(level.state == .revoked)
            #expect(level.transactionID == "a")
        }

        @Test func expiredWinsWhenTheExpiredTransactionEndedLater() {
            let refunded = F.purchase("a", from: "2026-01-01T00:00:00Z", to: "2026-01-20T00:00:00Z", revoked: "2026-01-05T00:00:00Z")
            let lapsed = F.purchase("b", from: "2026-01-10T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let level = F.level([refunded, lapsed], at: "2026-03-01T00:00:00Z")
            #expect(level.state == .expired)
            #expect(level.transactionID == "b")
            #expect(level.revokedAt == nil)
        }

        @Test func revokedLifetimeBeatsAnyExpiredSubscription() {
            let lifetime = F.purchase("life", product: F.lifetime, type: .nonConsumablePurchase, from: "2025-01-01T00:00:00Z", to: nil,
                                      revoked: "2025-02-01T00:00:00Z")
            let level = F.level([lifetime, Self.subscription], at: "2026-03-01T00:00:00Z")
            #expect(level.state == .revoked)
            #expect(!level.isLifetime)
        }

        // MARK: Scheduled and never

        @Test func earliestUpcomingStartIsShownAsScheduled() {
            let later = F.grant("late", from: "2026-01-01T00:00:00Z", starts: "2026-04-01T00:00:00Z", to: "2026-05-01T00:00:00Z")
            let sooner = F.grant("soon", from: "2026-01-01T00:00:00Z", starts: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z")
            let level = F.level([later, sooner, Self.subscription], at: "2026-02-15T00:00:00Z")
            #expect(level.state == .scheduled)
            #expect(!level.isActive)
            #expect(level.transactionID == "soon")
            #expect(level.startsAt == F.date("2026-03-01T00:00:00Z"))
        }

        @Test func activeBeatsScheduled() {
            let upcoming = F.grant("g", from: "2026-01-01T00:00:00Z", starts: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z")
            #expect(F.level([upcoming, Self.subscription], at: "2026-01-15T00:00:00Z").transactionID == "t1")
        }

        @Test func neverWithoutTransactions() {
            let evaluation = F.engine.evaluate("premium", for: F.profile([]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(evaluation.accessLevel == AccessLevel(id: "premium", state: .never))
            #expect(evaluation.considerations.isEmpty)
        }

        @Test func neverWhenNothingConsideredCanGiveAccess() {
            let coins = F.purchase("c", product: F.coins, type: .consumablePurchase, from: "2026-01-01T00:00:00Z", to: nil)
            let sandbox = F.purchase("s", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", environment: .sandbox)
            let engine = StatusEngine(configuration: F.configuration, environment: .production)
            let evaluation = engine.evaluate("premium", for: F.profile([coins, sandbox]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(evaluation.accessLevel.state == .never)
            #expect(evaluation.considerations.count == 2)
        }

        // MARK: Winner among transactions that give access

        @Test func lifetimeBeatsEverything() {
            let lifetime = F.purchase("life", product: F.lifetime, type: .nonConsumablePurchase, from: "2025-01-01T00:00:00Z", to: nil)
            let annual = F.purchase("year", product: F.annual, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
            let grant = F.grant("g", from: "2026-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z")
            let level = F.level([annual, grant, lifetime], at: "2026-01-15T00:00:00Z")
            #expect(level.transactionID == "life")
            #expect(level.isLifetime)
            #expect(level.state == .active)
        }

        @Test func latestExpiryWinsAcrossProductsOfOneEntitlement() {
            let monthly = F.purchase("m", product: F.monthly, from: "2026-01-10T00:00:00Z", to: "2026-02-10T00:00:00Z")
            let annual = F.purchase("y", product: F.annual, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
            let level = F.level([annual, monthly], at: "2026-01-15T00:00:00Z")
            #expect(level.transactionID == "y")
            #expect(level.productID == F.annual)
            #expect(level.expiresAt == F.date("2027-01-01T00:00:00Z"))
        }

        @Test func manualGrantWinsWhenItEndsLater() {
            let grant = F.grant("g", from: "2026-01-05T00:00:00Z", to: "2026-03-01T00:00:00Z")
            #expect(F.level([Self.subscription, grant], at: "2026-01-15T00:00:00Z").transactionID == "g")
        }

        @Test func graceEndCountsAsTheEffectiveExpiry() {
            let renewal = RenewalInfo(gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            let grant = F.grant("g", from: "2026-01-05T00:00:00Z", to: "2026-02-08T00:00:00Z")
            let level = F.level([Self.subscription, grant], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z")
            #expect(level.transactionID == "t1")
            #expect(level.state == .gracePeriod)
        }

        @Test func equalEffectiveExpiryPrefersTheLaterOwnExpiry() {
            // Grace ends Feb 10, the grant ends Feb 10 too: the grant's own expiry is later.
            let renewal = RenewalInfo(gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            let grant = F.grant("g", from: "2026-01-05T00:00:00Z", to: "2026-02-10T00:00:00Z")
            let level = F.level([Self.subscription, grant], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z")
            #expect(level.transactionID == "g")
            #expect(level.state == .active)
        }

        @Test func equalExpiryIsDecidedByTheLaterStartThenTheTransactionID() {
            let early = F.purchase("a", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let late = F.purchase("b", from: "2026-01-10T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([late, early], at: "2026-01-15T00:00:00Z").transactionID == "b")
            let twin = F.purchase("c", from: "2026-01-10T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([twin, late], at: "2026-01-15T00:00:00Z").transactionID == "c")
        }

        @Test func oneProductUnlocksTwoEntitlements() {
            let annual = F.purchase("y", product: F.annual, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
            let levels = F.engine.accessLevels(for: F.profile([annual]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(levels.map(\.id) == ["premium", "sports"])
            #expect(levels.allSatisfy { $0.state == .active && $0.transactionID == "y" })
        }

        @Test func onlyTheDecisiveConsiderationIsMarked() {
            let monthly = F.purchase("m", from: "2026-01-10T00:00:00Z", to: "2026-02-10T00:00:00Z")
            let annual = F.purchase("y", product: F.annual, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
            let evaluation = F.engine.evaluate("premium", for: F.profile([monthly, annual]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(evaluation.considerations.filter(\.isDecisive).map(\.transaction.transactionID) == ["y"])
            #expect(evaluation.considerations.allSatisfy { $0.verdict.givesAccess })
        }
    }
}
