import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Adapty fixtures: server-side profiles (they carry no date, so every import passes --at).
    @Suite(.tags(.cli))
    struct Adapty {
        static let cases: [FixtureCase] = [
            FixtureCase("adapty/profile-active.json", user: "adapty-active@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-canceled.json", user: "adapty-canceled@example.com", at: true, "active", of: "sports", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-trial.json", user: "adapty-trial@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-intro.json", user: "adapty-intro@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-grace-period.json", user: "adapty-grace@example.com", at: true, "grace_period", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-billing-retry.json", user: "adapty-retry@example.com", at: true, "billing_retry", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-expired.json", user: "adapty-expired@example.com", at: true, "expired", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-refunded.json", user: "adapty-refunded@example.com", at: true, "revoked", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-lifetime.json", user: "adapty-lifetime@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 0),
            FixtureCase("adapty/profile-sandbox.json", user: "adapty-sandbox@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-promotional.json", user: "adapty-promo@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 0),
            FixtureCase("adapty/profile-access-level-only.json", user: nil, at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("adapty/profile-disagreement.json", user: "adapty-disagree@example.com", at: true, "expired", verdict: "disagree", transactions: 1, renewals: 1),
        ]

        @Test(arguments: cases)
        func fixture(_ fixture: FixtureCase) { fixture.check() }

        @Test func profileIdAttributesAndNewerFields() {
            let store = Store()
            let (result, summary) = store.importJSON([fixtures + "/adapty/profile-active.json", "--at", documentTimeText])
            #expect(result.exitCode == 0)
            let profile = store.profile("adapty-active@example.com")
            #expect(profile?.profileID == "9a3e7c10-0000-4000-8000-000000000001")
            #expect(profile?.customAttributes["country"] == .string("DE"))
            #expect(profile?.customAttributes["age"] == .number("34"))
            #expect(summary.document().value["custom_attributes"]?["set"] == .array([.string("country"), .string("age")]))
            #expect(runCLI(["status", "--profile-id", "9a3e7c10-0000-4000-8000-000000000001", "--store", store.path]).exitCode == 0)
            let transaction = profile?.transactions.first
            #expect(transaction?.transactionID == "2000000000200102")
            #expect(transaction?.originalTransactionID == "2000000000200101")
            #expect(transaction?.type == .subscriptionRenewed)
            #expect(transaction?.raw["vendor"]?["adapty"]?["profile_id"]?.stringValue == "9a3e7c10-0000-4000-8000-000000000001")
        }

        @Test func gracePeriodEndsThePaidPeriodAtTheFailedCharge() {
            let store = Store()
            _ = store.importing([fixtures + "/adapty/profile-grace-period.json", "--at", documentTimeText])
            let profile = store.profile("adapty-grace@example.com")
            #expect(profile?.transactions.first?.expiresAt == ISODate.parse("2026-03-14T12:00:00Z"))
            #expect(profile?.renewalInfo["2000000000200501"]?.gracePeriodExpiresAt == ISODate.parse("2026-03-30T12:00:00Z"))
            #expect(profile?.renewalInfo["2000000000200501"]?.isInBillingRetry == true)
        }

        @Test func snapshotAndGrantTransactions() {
            let snapshot = Store()
            _ = snapshot.importing([fixtures + "/adapty/profile-access-level-only.json", "--user", "u", "--at", documentTimeText])
            let transaction = snapshot.profile("u")?.transactions.first
            #expect(transaction?.transactionID == "adapty:premium:2025-06-01T00:00:00Z")
            #expect(transaction?.productID == "com.example.premium.annual")
            #expect(snapshot.profile("u")?.profileID == "9a3e7c10-0000-4000-8000-000000000012")
            let grant = Store()
            _ = grant.importing([fixtures + "/adapty/profile-promotional.json", "--at", documentTimeText])
            let granted = grant.profile("adapty-promo@example.com")?.transactions.first
            #expect(granted?.transactionID == "adapty:grant:premium:2026-03-01T00:00:00Z")
            #expect(granted?.type == .manualGrant && granted?.entitlement == "premium" && granted?.grantedBy == "adapty")
            #expect(grant.configuration()?.entitlement("premium")?.products.count == 3)
        }

        @Test func withoutAtTheClockIsUsedAndSaid() {
            let store = Store()
            let (result, summary) = store.importJSON([fixtures + "/adapty/profile-active.json"], now: documentTime)
            #expect(result.exitCode == 0)
            #expect(result.stderr.contains("carries no date; vendor verdicts are compared at the current time (pass --at to choose)."))
            #expect(summary.document().value["time_source"]?.stringValue == "now")
            #expect(summary.document().value["document_time"]?.stringValue == documentTimeText)
        }
    }
}
