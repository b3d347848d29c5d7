import Foundation
import Testing
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// Which transactions count for an entitlement, and the start, expiry and revocation boundaries.
    struct StatusEngineTests {
        typealias F = Fixture

        // MARK: Which transactions unlock which entitlement

        @Test func configuredProductUnlocksItsEntitlementOnly() {
            let purchase = F.purchase("t1", product: F.monthly, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([purchase], entitlement: "premium", at: "2026-01-15T00:00:00Z").state == .active)
            #expect(F.level([purchase], entitlement: "sports", at: "2026-01-15T00:00:00Z").state == .never)
        }

        @Test func productThatIsNotConfiguredUnlocksNothing() {
            let purchase = F.purchase("t1", product: "com.example.unknown", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let evaluation = F.engine.evaluate("premium", for: F.profile([purchase]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(evaluation.accessLevel.state == .never)
            #expect(evaluation.considerations.isEmpty)
        }

        @Test func manualGrantUnlocksTheEntitlementItNamesWithoutAProduct() {
            let grant = F.grant("g1", entitlement: "sports", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([grant], entitlement: "sports", at: "2026-01-15T00:00:00Z").state == .active)
            #expect(F.level([grant], entitlement: "premium", at: "2026-01-15T00:00:00Z").state == .never)
        }

        @Test func manualGrantOfAnEntitlementMissingFromTheConfigurationStillGivesAccess() {
            let grant = F.grant("g1", entitlement: "beta", from: "2026-01-01T00:00:00Z", to: nil)
            #expect(F.level([grant], entitlement: "beta", at: "2026-01-15T00:00:00Z").state == .active)
        }

        @Test func transactionUnlocksFollowsTheConfiguration() {
            let annual = F.purchase("t1", product: F.annual, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
            #expect(F.engine.transaction(annual, unlocks: "premium"))
            #expect(F.engine.transaction(annual, unlocks: "sports"))
            #expect(!F.engine.transaction(annual, unlocks: "science"))
            var productless = annual
            productless.productID = nil
            #expect(!F.engine.transaction(productless, unlocks: "premium"))
        }

        // MARK: Start

        @Test(arguments: [
            ("2026-01-10T00:00:00Z", AccessState.active),  // starts exactly now
            ("2026-01-10T00:00:00.001Z", AccessState.active),
            ("2026-01-09T23:59:59.999Z", AccessState.scheduled),
        ])
        func startsAtIsInclusive(at: String, expected: AccessState) {
            let grant = F.grant("g1", from: "2026-01-01T00:00:00Z", starts: "2026-01-10T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", starts: "2026-01-10T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([grant], at: at).state == expected)
            #expect(F.level([purchase], at: at).state == expected)
        }

        @Test func purchasedAtIsTheStartWhenStartsAtIsAbsent() {
            let purchase = F.purchase("t1", from: "2026-01-10T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([purchase], at: "2026-01-10T00:00:00Z").state == .active)
            // Before purchased_at the purchase was not recorded yet: never, not scheduled.
            #expect(F.level([purchase], at: "2026-01-09T23:59:59.999Z").state == .never)
        }

        // MARK: Expiry

        @Test(arguments: [
            ("2026-01-31T23:59:59.999Z", AccessState.active),  // one millisecond before
            ("2026-02-01T00:00:00Z", AccessState.expired),  // exactly at expiry
            ("2026-02-01T00:00:00.001Z", AccessState.expired),
        ])
        func expiresAtIsExclusive(at: String, expected: AccessState) {
            let purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let grant = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([purchase], at: at).state == expected)
            #expect(F.level([grant], at: at).state == expected)
        }

        @Test func expiredLevelReportsTheExpiry() {
            let level = F.level([F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")], at: "2026-03-01T00:00:00Z")
            #expect(level.state == .expired)
            #expect(!level.isActive)
            #expect(level.expiresAt == F.date("2026-02-01T00:00:00Z"))
            #expect(level.transactionID == "t1")
            #expect(level.revokedAt == nil)
        }

        @Test func noExpiryIsLifetime() {
            let purchase = F.purchase("t1", product: F.lifetime, type: .nonConsumablePurchase, from: "2025-01-01T00:00:00Z", to: nil)
            let level = F.level([purchase], at: "2099-01-01T00:00:00Z")
            #expect(level.state == .active)
            #expect(level.isLifetime)
            #expect(level.expiresAt == nil)
        }

        @Test func timedPurchaseIsNotLifetime() {
            #expect(!F.level([F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")], at: "2026-01-15T00:00:00Z").isLifetime)
        }

        // MARK: Revocation

        @Test(arguments: [
            ("2026-01-15T00:00:00Z", AccessState.revoked),  // revoked exactly now
            ("2026-01-14T00:00:00Z", AccessState.revoked),  // revoked earlier
            ("2026-01-15T00:00:00.001Z", AccessState.active),  // revoked later: still active now
        ])
        func revokedAtIsInclusive(revoked: String, expected: AccessState) {
            let purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", revoked: revoked)
            let grant = F.grant("g1", from: "2026-01-01T00:00:00Z", to: nil, revoked: revoked)
            #expect(F.level([purchase], at: "2026-01-15T00:00:00Z").state == expected)
            #expect(F.level([grant], at: "2026-01-15T00:00:00Z").state == expected)
        }

        @Test func revokedLevelCarriesRevocationDetails() {
            var purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", revoked: "2026-01-10T00:00:00Z")
            purchase.revocationReason = "refunded"
            let level = F.level([purchase], at: "2026-01-15T00:00:00Z")
            #expect(level.state == .revoked)
            #expect(!level.isActive)
            #expect(level.revokedAt == F.date("2026-01-10T00:00:00Z"))
            #expect(level.revocationReason == "refunded")
        }

        @Test func revokedScheduledGrantIsRevokedNotScheduled() {
            let grant = F.grant("g1", from: "2026-01-01T00:00:00Z", starts: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z",
                                revoked: "2026-01-05T00:00:00Z")
            #expect(F.level([grant], at: "2026-01-15T00:00:00Z").state == .revoked)
        }

        // MARK: Consumables and unknown types

        @Test func consumablesNeverGiveAccess() {
            let coins = F.purchase("c1", product: F.coins, type: .consumablePurchase, from: "2026-01-01T00:00:00Z", to: nil)
            let evaluation = F.engine.evaluate("premium", for: F.profile([coins]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(evaluation.accessLevel.state == .never)
            #expect(evaluation.considerations.map(\.verdict) == [.consumable])
            #expect(evaluation.considerations.allSatisfy { !$0.isDecisive })
        }

        @Test func consumableWithAnExpiryStillNeverGivesAccess() {
            let coins = F.purchase("c1", product: F.coins, type: .consumablePurchase, from: "2026-01-01T00:00:00Z", to: "2026-12-01T00:00:00Z")
            #expect(F.level([coins], at: "2026-01-15T00:00:00Z").state == .never)
        }

        @Test(arguments: [
            (nil as String?, AccessState.active, true),  // like a non-consumable purchase
            ("2026-02-01T00:00:00Z", AccessState.active, false),  // like a subscription
        ])
        func unknownTypeIsTreatedAsAPurchaseOfItsProduct(expiry: String?, expected: AccessState, lifetime: Bool) {
            let purchase = F.purchase("t1", type: TransactionType(rawValue: "winback_offer"), from: "2026-01-01T00:00:00Z", to: expiry)
            let level = F.level([purchase], at: "2026-01-15T00:00:00Z")
            #expect(level.state == expected)
            #expect(level.isLifetime == lifetime)
        }

        // MARK: Environment filter

        @Test(arguments: [
            (EnvironmentFilter.any, Environment.production, AccessState.active),
            (.any, .sandbox, .active),
            (.production, .production, .active),
            (.production, .sandbox, .never),
            (.sandbox, .sandbox, .active),
            (.sandbox, .production, .never),
            (.production, Environment(rawValue: "xcode"), .active),  // only sandbox is excluded from production
            (.sandbox, Environment(rawValue: "xcode"), .never),
        ])
        func environmentFilter(filter: EnvironmentFilter, environment: Environment, expected: AccessState) {
            let purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", environment: environment)
            let engine = StatusEngine(configuration: F.configuration, environment: filter)
            #expect(F.level([purchase], at: "2026-01-15T00:00:00Z", engine: engine).state == expected)
        }

        @Test func excludedTransactionsAreListedWithTheirReason() {
            let sandbox = F.purchase("s1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", environment: .sandbox)
            let production = F.purchase("p1", from: "2025-01-01T00:00:00Z", to: "2025-02-01T00:00:00Z")
            let engine = StatusEngine(configuration: F.configuration, environment: .production)
            let evaluation = engine.evaluate("premium", for: F.profile([sandbox, production]), at: F.date("2026-01-15T00:00:00Z"))
            #expect(evaluation.considerations.first { $0.transaction.transactionID == "s1" }?.verdict == .excludedEnvironment(.sandbox))
            #expect(evaluation.accessLevel.state == .expired)
            #expect(evaluation.accessLevel.transactionID == "p1")
        }
    }
}
