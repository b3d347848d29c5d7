import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// A RevenueCat grace period's renewal outlook, and a refund
    /// against an entitlement whose `expires_date` runs on.
    @Suite(.tags(.cli))
    struct RevenueCatRenewalAndRefundTests {
        /// `status --json`'s access level of `entitlement`.
        static func level(_ store: Store, _ user: String, _ entitlement: String = "premium") -> JSONValue? {
            let result = runCLI(["status", user, "--store", store.path, "--at", ImportTests.documentTimeText, "--json"])
            return (try? JSONParser.parse(result.stdout))?["access_levels"]?[entitlement]
        }

        @Test(arguments: [
            ("revenuecat/subscriber-grace-period.json", "rc-grace@example.com", "grace_period"),
            ("revenuecat/subscriber-billing-retry.json", "rc-retry@example.com", "billing_retry"),
        ])
        func graceAndRetryRenewStateIsBillingIssue(file: String, user: String, state: String) {
            let store = Store()
            #expect(store.importing([ImportTests.fixtures + "/" + file]).exitCode == 0)
            let level = Self.level(store, user)
            #expect(level?["state"]?.stringValue == state)
            #expect(level?["renew_state"]?.stringValue == "billing_issue")
            // The import still mirrors RevenueCat's will_renew (false on a billing issue).
            #expect(level?["will_renew"] == .bool(false))
        }

        /// A subscription refunded in March whose entitlement claims to run to 2100.
        static func refundedDocument(subscriptionExpires: String) -> String {
            """
            {"request_date": "2026-03-15T12:00:00Z", "request_date_ms": 1773576000000,
             "subscriber": {"original_app_user_id": "rc-refund-runs-on@example.com",
              "entitlements": {"premium": {"expires_date": "2100-01-01T00:00:00Z", "product_identifier": "com.example.premium.monthly",
                                           "purchase_date": "2026-03-01T12:00:00Z"}},
              "subscriptions": {"com.example.premium.monthly": {
                "expires_date": "\(subscriptionExpires)", "is_sandbox": false, "original_purchase_date": "2026-03-01T12:00:00Z",
                "ownership_type": "PURCHASED", "period_type": "normal", "purchase_date": "2026-03-01T12:00:00Z",
                "refunded_at": "2026-03-10T12:00:00Z", "store": "app_store", "unsubscribe_detected_at": null,
                "billing_issues_detected_at": null}},
              "non_subscriptions": {}}}
            """
        }

        @Test(arguments: ["2026-04-01T12:00:00Z", "2100-01-01T00:00:00Z"])
        func refundWinsOverTheEntitlementsPeriod(subscriptionExpires: String) {
            let store = Store()
            let file = store.directory.path + "/refund.json"
            writeFile(file, Self.refundedDocument(subscriptionExpires: subscriptionExpires))
            let result = store.importing([file])
            #expect(result.exitCode == 0)
            #expect(Self.level(store, "rc-refund-runs-on@example.com")?["state"]?.stringValue == "revoked")
            let ids = store.profile("rc-refund-runs-on@example.com")?.transactions.map(\.transactionID) ?? []
            #expect(!ids.contains { $0.hasPrefix("rc:entitlement:") })
            if subscriptionExpires.hasPrefix("2026") {
                #expect(result.stderr.contains("the refund wins"))
            }
        }
    }
}
