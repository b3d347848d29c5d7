import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// RevenueCat fixtures: `GET /v1/subscribers/{id}` responses.
    @Suite(.tags(.cli))
    struct RevenueCat {
        static let cases: [FixtureCase] = [
            FixtureCase("revenuecat/subscriber-active.json", user: "rc-active@example.com", "active", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("revenuecat/subscriber-active.json", user: "rc-active@example.com", "active", of: "sports", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("revenuecat/subscriber-canceled.json", user: "rc-canceled@example.com", "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-trial.json", user: "rc-trial@example.com", "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-intro.json", user: "rc-intro@example.com", "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-grace-period.json", user: "rc-grace@example.com", "grace_period", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-billing-retry.json", user: "rc-retry@example.com", "billing_retry", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-expired.json", user: "rc-expired@example.com", "expired", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-refunded.json", user: "rc-refunded@example.com", "revoked", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-lifetime.json", user: "rc-lifetime@example.com", "active", verdict: "agree", transactions: 1, renewals: 0),
            FixtureCase("revenuecat/subscriber-family-sharing.json", user: "rc-family@example.com", "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("revenuecat/subscriber-sandbox.json", user: "rc-sandbox@example.com", "active", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("revenuecat/subscriber-sandbox.json", user: "rc-sandbox@example.com", "expired", of: "sports", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("revenuecat/subscriber-promotional.json", user: "rc-promo@example.com", "active", verdict: "agree", transactions: 2, renewals: 0),
            FixtureCase("revenuecat/subscriber-promotional.json", user: "rc-promo@example.com", "expired", of: "sports", verdict: nil, transactions: 2, renewals: 0),
            FixtureCase("revenuecat/subscriber-disagreement.json", user: "rc-disagree@example.com", "active", verdict: "disagree", transactions: 1, renewals: 1),
        ]

        @Test(arguments: cases)
        func fixture(_ fixture: FixtureCase) { fixture.check() }

        @Test func synthesizedIdsAndConfiguration() {
            let store = Store()
            let (_, summary) = store.importJSON([fixtures + "/revenuecat/subscriber-active.json"])
            #expect(summary.document().configAdded == ["sports += com.example.sports.monthly"])
            #expect(summary.document().value["renewal_info"]?["added"] == .array([
                .string("rc:com.example.premium.monthly:2026-01-01T09:00:00Z"), .string("rc:com.example.sports.monthly:2026-03-03T09:00:00Z"),
            ]))
            #expect(store.configuration()?.product("com.example.sports.monthly", unlocks: "sports") == true)
            let canceled = Store()
            _ = canceled.importing([fixtures + "/revenuecat/subscriber-canceled.json"])
            let transaction = canceled.profile("rc-canceled@example.com")?.transactions.first
            #expect(transaction?.transactionID == "rc:com.example.premium.monthly:2026-03-05T09:00:00Z")
            #expect(transaction?.type == .subscriptionRenewed)
            #expect(canceled.profile("rc-canceled@example.com")?.renewalInfo[transaction?.originalTransactionID ?? ""]?.willRenew == false)
        }

        @Test func promotionalPurchasesBecomeManualGrants() {
            let store = Store()
            let (result, summary) = store.importJSON([fixtures + "/revenuecat/subscriber-promotional.json"])
            #expect(result.exitCode == 0)
            #expect(summary.document().configAdded.isEmpty)
            let grants = store.profile("rc-promo@example.com")?.transactions ?? []
            #expect(grants.map(\.type) == [.manualGrant, .manualGrant])
            #expect(grants.map(\.entitlement) == ["premium", "sports"])
            #expect(grants.allSatisfy { $0.store == .manual && $0.productID == nil && $0.grantedBy == "revenuecat" })
            #expect(grants.first?.reason == "RevenueCat promotional rc_promo_premium_monthly")
            let history = runCLI(["history", "rc-promo@example.com", "--store", store.path])
            #expect(history.stdout.contains("grant") && history.stdout.contains("revenuecat"))
        }

        @Test(arguments: [("rc_promo_premium_monthly", "premium"), ("rc_promo_pro_plus_three_day", "pro_plus"), ("rc_promo_x", nil), ("rc_promo__weekly", nil)])
        func promotionalEntitlementFromName(_ product: String, _ entitlement: String?) {
            #expect(RevenueCatPurchases.promoEntitlement(product) == entitlement)
        }

        @Test func sandboxAndPlayStore() {
            let store = Store()
            _ = store.importing([fixtures + "/revenuecat/subscriber-sandbox.json"])
            let transactions = store.profile("rc-sandbox@example.com")?.transactions ?? []
            #expect(transactions.allSatisfy { $0.environment == .sandbox && $0.store == .playStore })
            #expect(runCLI(["check", "rc-sandbox@example.com", "premium", "--store", store.path, "--at", documentTimeText, "--environment", "production", "--quiet"]).exitCode == 1)
            #expect(transactions.first?.raw["vendor"]?["revenuecat"]?["object"]?["product_plan_identifier"]?.stringValue == "monthly-autorenew")
        }

        @Test func theRefundIsKept() {
            let store = Store()
            _ = store.importing([fixtures + "/revenuecat/subscriber-refunded.json"])
            let transaction = store.profile("rc-refunded@example.com")?.transactions.first
            #expect(transaction?.revokedAt == ISODate.parse("2026-03-08T10:00:00Z"))
            #expect(transaction?.revocationReason == "refunded")
            let explain = runCLI(["check", "rc-refunded@example.com", "premium", "--store", store.path, "--at", documentTimeText, "--explain"])
            #expect(explain.stdout.contains("2000000000100801") && explain.stdout.contains("revoked 2026-03-08T10:00:00Z"))
        }
    }
}
