import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// App Store fixtures: decoded payloads, notifications, statuses and history with real JWS strings.
    @Suite(.tags(.cli))
    struct AppStore {
        static let cases: [FixtureCase] = [
            FixtureCase("appstore/notification-active.json", user: appleUser(1), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-canceled.json", user: appleUser(2), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-trial.json", user: appleUser(3), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-intro.json", user: appleUser(4), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-grace-period.json", user: appleUser(5), "grace_period", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-billing-retry.json", user: appleUser(6), "billing_retry", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-expired.json", user: appleUser(7), "expired", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-refund.json", user: appleUser(8), "revoked", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/transaction-lifetime.json", user: nil, "active", verdict: nil, transactions: 1, renewals: 0),
            FixtureCase("appstore/notification-family-sharing.json", user: appleUser(10), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/statuses-sandbox.json", user: appleUser(11), "active", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("appstore/notification-promotional-offer.json", user: appleUser(12), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/transactions-array.json", user: appleUser(13), "active", verdict: nil, transactions: 2, renewals: 0),
            FixtureCase("appstore/renewal-info.json", user: appleUser(13), "never", verdict: nil, transactions: 0, renewals: 1),
            FixtureCase("appstore/history-signed.json", user: appleUser(15), "active", verdict: nil, transactions: 2, renewals: 0),
            FixtureCase("appstore/notification-signed-payload.json", user: appleUser(16), "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("appstore/notification-disagreement.json", user: appleUser(18), "expired", verdict: "disagree", transactions: 1, renewals: 1),
        ]

        @Test(arguments: cases)
        func fixture(_ fixture: FixtureCase) { fixture.check() }

        @Test func typesOffersAndOwnershipAreMapped() {
            let expected: [(String, Int, String, String?, String)] = [
                ("notification-trial.json", 3, "trial_started", nil, "owner"),
                ("notification-intro.json", 4, "intro_renewed", nil, "owner"),
                ("notification-promotional-offer.json", 12, "subscription_renewed", "com.example.winback50", "owner"),
                ("notification-family-sharing.json", 10, "subscription_started", nil, "family_sharing"),
                ("notification-refund.json", 8, "subscription_started", nil, "owner"),
            ]
            for (file, number, type, offer, ownership) in expected {
                let store = Store()
                #expect(store.importing([fixtures + "/appstore/" + file]).exitCode == 0)
                let transaction = store.profile(appleUser(number))?.transactions.first
                #expect(transaction?.type.rawValue == type, "\(file)")
                #expect(transaction?.offerCode == offer, "\(file)")
                #expect(transaction?.ownershipType.rawValue == ownership, "\(file)")
                #expect(transaction?.store == .appStore)
                #expect(transaction?.currency == "USD")
            }
            let refunded = Store()
            _ = refunded.importing([fixtures + "/appstore/notification-refund.json"])
            let transaction = refunded.profile(appleUser(8))?.transactions.first
            #expect(transaction?.revocationReason == "refunded")
            #expect(transaction?.revokedAt == ISODate.parse("2026-03-08T10:00:00Z"))
            #expect(transaction?.price == 9.99)
            #expect(transaction?.raw["vendor"]?["appstore"]?["transaction"]?["revocationType"]?.stringValue == "REFUND_FULL")
        }

        @Test func sandboxStatusesKeepTheUnmappedSubscription() {
            let store = Store()
            let (result, summary) = store.importJSON([fixtures + "/appstore/statuses-sandbox.json"])
            #expect(result.exitCode == 0)
            let row = summary.document().verdict("2000000000001111")
            #expect(row?["entitlement"]?.stringValue == "(unmapped)")
            #expect(row?["result"]?.stringValue == "agree")
            #expect(row?["ours"]?.stringValue == "expired")
            #expect(store.profile(appleUser(11))?.transactions.allSatisfy { $0.environment == .sandbox } == true)
            #expect(runCLI(["check", appleUser(11), "premium", "--store", store.path, "--at", documentTimeText, "--environment", "production"]).exitCode == 1)
        }

        @Test func renewalInfoAfterTransactionsCancelsRenewal() {
            let store = Store()
            #expect(store.importing([fixtures + "/appstore/transactions-array.json", fixtures + "/appstore/renewal-info.json"]).exitCode == 0)
            let status = runCLI(["status", appleUser(13), "--store", store.path, "--at", documentTimeText, "--json"])
            let level = (try? JSONParser.parse(status.stdout))?["access_levels"]?["premium"]
            #expect(level?["state"]?.stringValue == "active")
            #expect(level?["renew_state"]?.stringValue == "canceled")
            #expect(level?["will_renew"] == .bool(false))
            #expect(store.profile(appleUser(13))?.renewalInfo["2000000000001301"]?.raw["vendor"]?["appstore"]?["renewal_info"] != nil)
        }

        @Test func placeholdersAreWarnedAndImportNothing() {
            let store = Store()
            let (result, summary) = store.importJSON([fixtures + "/appstore/notification-placeholder.json"])
            #expect(result.exitCode == 0)
            // Under --json, warnings are JSON objects on stderr.
            #expect(result.stderr.contains(#"{"warning":"\#(fixtures)/appstore/notification-placeholder.json: data.signedTransactionInfo is not a JWS (\"signed_transaction_info_value\"); skipped"}"#))
            #expect(result.stderr.components(separatedBy: "is not a JWS").count == 3)
            #expect(!result.stderr.contains("signatures are not verified"))
            #expect(summary.document().value["user"] == .null)
            #expect(summary.document().verdict("-")?["result"]?.stringValue == "not_compared")
            #expect(summary["totals"]?["not_compared"]?.intValue == 1)
            #expect(store.profileNames().isEmpty)
        }

        @Test func signaturesAreNotVerifiedAndSaidOnce() {
            let store = Store()
            let files = ["notification-active.json", "notification-trial.json", "notification-signed-payload.json"].map { fixtures + "/appstore/" + $0 }
            let (result, summary) = store.importJSON(files)
            #expect(result.exitCode == 0)
            #expect(result.stderr.components(separatedBy: #"{"warning":"JWS signatures are not verified"#).count == 2)
            #expect(summary["jws_decoded"]?.intValue == 2 + 2 + 3)
            #expect(summary["signatures_verified"] == .bool(false))
        }

        @Test func aDocumentWithoutUserNeedsUserOption() {
            let store = Store()
            let result = store.importing([fixtures + "/appstore/transaction-lifetime.json"])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("transaction-lifetime.json: the document does not say which user it belongs to."))
            #expect(result.stderr.contains("Pass --user USER."))
            #expect(store.profileNames().isEmpty)
        }

        @Test func aBareJWSDocumentIsDecoded() throws {
            let notification = try #require(readFile(fixtures + "/appstore/notification-signed-payload.json"))
            let signed = try #require(try JSONParser.parse(notification)["signedPayload"]?.stringValue)
            let store = Store()
            let result = store.importing(["-"], stdin: signed + "\n")
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("<stdin>: App Store notification SUBSCRIBED/RESUBSCRIBE → \(appleUser(16)) (new profile)"))
            #expect(store.state(appleUser(16), "premium") == "active")
        }
    }
}
