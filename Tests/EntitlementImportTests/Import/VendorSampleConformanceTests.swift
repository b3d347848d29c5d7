import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// The vendors' own published samples (`../shared/vendor-samples/`, read in place, never copied):
    /// every verdict their README states is reproduced, by our engine or as a listed disagreement.
    @Suite(.enabled(if: ImportTests.vendorSamplesPresent), .tags(.cli))
    struct VendorSamples {
        static let config = readFile(ImportTests.fixtures + "/vendor-samples-config.json")!

        /// Imports one sample into a fresh store with the conformance configuration.
        func importing(_ sample: String, _ arguments: [String] = []) -> (Store, CLIResult, DocumentSummary) {
            let store = Store(config: Self.config)
            let (result, summary) = store.importJSON([vendorSamples + "/" + sample] + arguments)
            return (store, result, summary.document())
        }

        func notAJWS(_ result: CLIResult) -> Int { result.stderr.components(separatedBy: "is not a JWS").count - 1 }

        @Test func appStorePlaceholdersImportNothing() {
            let (store, result, document) = importing("appstore/getAllSubscriptionStatusesResponse.json")
            #expect(result.exitCode == 0)
            #expect(notAJWS(result) == 6)
            #expect(store.profileNames().isEmpty)
            let rows = document.value["verdicts"]?.arrayValue ?? []
            #expect(rows.map { $0["subject"]?.stringValue ?? "-" } == ["3749183", "5314314134", "3413453"])
            #expect(rows.map { $0["vendor"]?.stringValue ?? "-" } == ["active", "revoked", "expired"])
            #expect(rows.allSatisfy { $0["result"]?.stringValue == "not_compared" })
            for page in ["appstore/getRefundHistoryResponse.json", "appstore/transactionHistoryResponse.json"] {
                let (pageStore, pageResult, _) = importing(page)
                #expect(pageResult.exitCode == 0 && notAJWS(pageResult) == 2)
                #expect(pageResult.stderr.contains("hasMore is true: only this page was imported"))
                #expect(pageStore.profileNames().isEmpty)
            }
        }

        @Test func appStoreNotifications() {
            for (sample, type) in [("signedNotification.json", "SUBSCRIBED/INITIAL_BUY"), ("signedConsumptionRequestNotification.json", "CONSUMPTION_REQUEST")] {
                let (store, result, document) = importing("appstore/" + sample)
                #expect(result.exitCode == 0 && notAJWS(result) == 2)
                #expect(document.value["shape"]?.stringValue == "notification" && document.value["detail"]?.stringValue == type)
                #expect(document.value["user"] == .null, "nothing to import")
                #expect(document.value["document_time"]?.stringValue == "2023-10-24T12:01:40Z")
                #expect(document.verdict("-")?["result"]?.stringValue == "not_compared")
                #expect(document.verdict("-")?["evidence"]?.stringValue == "status 1 (active)")
                #expect(store.profileNames().isEmpty)
            }
            let (_, summary, document) = importing("appstore/signedSummaryNotification.json")
            #expect(summary.exitCode == 0)
            #expect(summary.stderr.contains("RENEWAL_EXTENSION/SUMMARY notification carries no customer data; nothing imported"))
            #expect(document.value["verdicts"]?.arrayValue.isEmpty == true)
        }

        @Test func appStoreTransactionAndRenewalInfo() throws {
            let user = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
            let (store, result, document) = importing("appstore/signedTransaction.json")
            #expect(result.exitCode == 0)
            #expect(document.value["user_source"]?.stringValue == "appAccountToken")
            let transaction = try #require(store.profile(user)?.transactions.first)
            #expect(transaction.transactionID == "23456" && transaction.originalTransactionID == "12345")
            #expect(transaction.type == .introStarted && transaction.environment == .sandbox)
            #expect(transaction.price == 10.99 && transaction.currency == "USD" && transaction.offerCode == "abc.123")
            #expect(transaction.revokedAt == ISODate.parse("2023-10-24T12:02:30Z") && transaction.revocationReason == "refunded")
            #expect(document.value["verdicts"]?.arrayValue.isEmpty == true)
            // Apple's sample says isUpgraded: true, and the transaction that replaced it is not in
            // the document: this transaction gives no access (docs/status-rules.md, superseded periods).
            #expect(transaction.isUpgraded == true)
            #expect(store.state(user, "premium", at: "2023-10-24T12:01:40Z") == "expired")
            #expect(store.state(user, "premium", at: "2023-10-24T12:02:30Z") == "revoked")

            let (revocation, revocationResult, _) = importing("appstore/signedTransactionWithRevocation.json")
            #expect(revocationResult.exitCode == 0)
            let kept = revocation.profile(user)?.transactions.first?.raw["vendor"]?["appstore"]?["transaction"]
            #expect(kept?["revocationType"]?.stringValue == "REFUND_PRORATED" && kept?["revocationPercentage"] == .number("50000"))
            let (_, again) = revocation.importJSON([vendorSamples + "/appstore/signedTransaction.json"])
            #expect(again.document().updated == 1, "vendor data only")
            #expect(revocation.state(user, "premium", at: "2023-10-24T12:02:30Z") == "revoked")

            let (renewalStore, renewalResult, _) = importing("appstore/signedRenewalInfo.json")
            #expect(renewalResult.exitCode == 0)
            let renewal = renewalStore.profile(user)?.renewalInfo["12345"]
            #expect(renewal?.willRenew == true && renewal?.isInBillingRetry == true)
            #expect(renewal?.gracePeriodExpiresAt == ISODate.parse("2023-10-24T12:01:40Z"))
            #expect(renewalStore.state(user, "premium", at: "2023-10-24T12:01:40Z") == "never")
        }

        @Test(arguments: ["revenuecat/CustomerInfo.json", "revenuecat/CustomerInfoWithoutOriginalSource.json"])
        func revenueCatCustomerInfo(_ sample: String) {
            let (store, result, document) = importing(sample)
            #expect(result.exitCode == 0)
            #expect(result.stderr.contains("is an anonymous RevenueCat id"))
            #expect(document.configAdded == ["premium += com.revenuecat.monthly_4.99.1_week_intro", "tip += com.revenuecat.product.tip"])
            #expect(document.added == 3 && document.renewalsAdded == 2)
            #expect(document.verdict("tip")?["result"]?.stringValue == "agree")
            #expect(document.verdict("tip")?["ours"]?.stringValue == "active")
            let premium = document.verdict("premium")
            #expect(premium?["result"]?.stringValue == "disagree")
            #expect(premium?["vendor"]?.stringValue == "expired" && premium?["ours"]?.stringValue == "active")
            #expect(store.configuration()?.entitlement("tip")?.products == ["com.revenuecat.product.tip"])
            #expect(result.stderr.contains("is dated 2022-04-12T00:03:28Z, after request_date 2022-03-08T17:42:58Z; recorded as of request_date"))
        }

        @Test func revenueCatVersion2() {
            let (store, result, document) = importing("revenuecat/CustomerInfo-v2.json")
            #expect(result.exitCode == 0)
            #expect(document.added == 4 && document.renewalsAdded == 4)
            #expect(document.configAdded == ["premium += com.revenuecat.monthly_4.99.1_week_intro"])
            #expect(document.verdict("premium")?["result"]?.stringValue == "agree")
            let profile = store.profile("$RCAnonymousID:8e603271a2e24df49f02f14704d8287c")
            #expect(profile?.transactions.allSatisfy { $0.environment == .sandbox && $0.type == .subscriptionRenewed } == true)
            let play = profile?.transactions.first { $0.store == .playStore }
            #expect(play?.raw["vendor"]?["revenuecat"]?["object"]?["auto_resume_date"]?.stringValue == "2023-02-01T00:00:00Z")
            #expect(play?.raw["vendor"]?["revenuecat"]?["object"]?["product_plan_identifier"]?.stringValue == "annual-plan")
            let canceled = profile?.renewalInfo.filter { $0.key.contains("intro_test") }.map(\.value.willRenew)
            #expect(canceled == [false, false])
        }

        @Test func revenueCatInvalidAndDuplicateKeys() {
            let (invalid, invalidResult, _) = importing("revenuecat/CustomerInfoWithInvalidSubscription.json")
            #expect(invalidResult.exitCode == 4)
            #expect(invalidResult.stderr.contains("CustomerInfoWithInvalidSubscription.json: subscriber.subscriptions.sub1.purchase_date: expected a date (ISO 8601 string), found false"))
            #expect(invalid.profileNames().isEmpty)
            #expect(invalid.configuration()?.entitlementIDs == ["premium"])

            let (store, result, document) = importing("revenuecat/CustomerInfoWithDuplicateMappedProductKeys.json")
            #expect(result.exitCode == 0)
            #expect(store.profile("app_user_id")?.transactions.compactMap(\.productID).sorted() == ["pro_ios", "rc_sub", "rc_sub:monthly"])
            #expect(document.renewalsAdded == 2 && document.configAdded.isEmpty)
            #expect(document.value["verdicts"]?.arrayValue.isEmpty == true)
        }

        @Test func adaptyAccessLevel() throws {
            let (store, result, document) = importing("adapty/profile-access-level-sdk-test.json", ["--user", "adapty-sample", "--at", "2026-09-29T12:10:00Z"])
            #expect(result.exitCode == 0)
            let profile = try #require(store.profile("adapty-sample"))
            #expect(profile.profileID == "profile")
            #expect(document.configAdded == ["premium += yearly"])
            let transaction = try #require(profile.transactions.first)
            #expect(transaction.transactionID == "adapty:premium:2026-01-01T00:00:00Z" && transaction.productID == "yearly" && transaction.store == .appStore)
            #expect(transaction.type == .trialStarted && transaction.expiresAt == ISODate.parse("2026-10-01T00:00:00Z"))
            let renewal = profile.renewalInfo[transaction.transactionID]
            #expect(renewal?.willRenew == false && renewal?.isInBillingRetry == true)
            #expect(renewal?.unsubscribedAt == ISODate.parse("2026-09-29T12:00:00Z") && renewal?.billingIssueDetectedAt == ISODate.parse("2026-08-31T00:00:00Z"))
            #expect(document.verdict("premium")?["result"]?.stringValue == "agree")
        }

        @Test func qonversionEntitlementsAndInit() throws {
            let (store, result, document) = importing("qonversion/expected_entitlements.json", ["--user", "qonversion-sample", "--at", "2023-04-01T00:00:00Z"])
            #expect(result.exitCode == 0)
            #expect(document.configAdded == ["premium += test_monthly"])
            let transactions = store.profile("qonversion-sample")?.transactions ?? []
            #expect(transactions.count == 12)
            #expect(transactions.filter { $0.type == .subscriptionStarted }.count == 1 && transactions.filter { $0.type == .subscriptionRenewed }.count == 11)
            #expect(transactions.allSatisfy { $0.store == .appStore && $0.environment == .sandbox && $0.ownershipType == .owner })
            #expect(store.profile("qonversion-sample")?.renewalInfo["2000000305530406"]?.willRenew == false)
            #expect(document.verdict("premium")?["result"]?.stringValue == "agree" && document.verdict("premium")?["ours"]?.stringValue == "expired")

            let (initStore, initResult, initDocument) = importing("qonversion/init.json", ["--user", "qonversion-sample"])
            #expect(initResult.exitCode == 0)
            #expect(initDocument.value["document_time"]?.stringValue == "2020-04-08T18:11:59Z")
            #expect(initDocument.configAdded == ["standart += qonversion_product", "premium += qonversion_product"])
            let shared = try #require(initStore.profile("qonversion-sample")?.transactions.first)
            #expect(initStore.profile("qonversion-sample")?.transactions.count == 1)
            #expect(shared.transactionID == "qonversion:qonversion_product:2020-04-08T18:11:26Z" && shared.store.rawValue == "unknown")
            #expect(shared.raw["vendor"]?["qonversion"]?["entitlements"]?.objectValue?.keys.sorted() == ["premium", "standart"])
            let renewal = initStore.profile("qonversion-sample")?.renewalInfo[shared.transactionID]
            #expect(renewal?.willRenew == true && renewal?.isInBillingRetry == true)
            #expect(initDocument.verdict("premium")?["result"]?.stringValue == "agree")
            #expect(initDocument.verdict("standart")?["result"]?.stringValue == "disagree")
            #expect(initDocument.verdict("standart")?["ours"]?.stringValue == "active")
        }

        /// The README's totals over the whole run: 3 disagreements, 6 agreements, 5 not compared, 1 refused.
        @Test func totals() {
            let runs: [(String, [String])] = [
                ("appstore/getAllSubscriptionStatusesResponse.json", []), ("appstore/getRefundHistoryResponse.json", []),
                ("appstore/transactionHistoryResponse.json", []), ("appstore/signedNotification.json", []),
                ("appstore/signedConsumptionRequestNotification.json", []), ("appstore/signedSummaryNotification.json", []),
                ("appstore/signedTransaction.json", []), ("appstore/signedTransactionWithRevocation.json", []), ("appstore/signedRenewalInfo.json", []),
                ("revenuecat/CustomerInfo.json", []), ("revenuecat/CustomerInfoWithoutOriginalSource.json", []), ("revenuecat/CustomerInfo-v2.json", []),
                ("revenuecat/CustomerInfoWithInvalidSubscription.json", []), ("revenuecat/CustomerInfoWithDuplicateMappedProductKeys.json", []),
                ("adapty/profile-access-level-sdk-test.json", ["--user", "adapty-sample", "--at", "2026-09-29T12:10:00Z"]),
                ("qonversion/expected_entitlements.json", ["--user", "qonversion-sample", "--at", "2023-04-01T00:00:00Z"]),
                ("qonversion/init.json", ["--user", "qonversion-sample"]),
            ]
            var counts: [String: Int] = [:]
            var refused = 0
            for (sample, arguments) in runs {
                let (_, result, document) = importing(sample, arguments)
                if result.exitCode != 0 { refused += 1 }
                for row in document.value["verdicts"]?.arrayValue ?? [] { counts[row["result"]?.stringValue ?? "?", default: 0] += 1 }
            }
            #expect(counts == ["disagree": 3, "agree": 6, "not_compared": 5])
            #expect(refused == 1)
        }
    }

    /// Says so when the vendor samples are not beside the repository (CI always has them).
    @Test(.enabled(if: !ImportTests.vendorSamplesPresent))
    static func vendorSamplesSkipped() {
        print("skipped: vendor-samples conformance, \(ImportTests.vendorSamples) is absent")
    }
}
