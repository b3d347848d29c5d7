import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Qonversion fixtures: entitlement arrays (no date: --at) and permissions responses (with `timestamp`).
    @Suite(.tags(.cli))
    struct Qonversion {
        static let cases: [FixtureCase] = [
            FixtureCase("qonversion/entitlements-active.json", user: nil, at: true, "active", verdict: "agree", transactions: 2, renewals: 1),
            FixtureCase("qonversion/entitlements-canceled.json", user: nil, at: true, "active", of: "sports", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("qonversion/entitlements-trial.json", user: nil, at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("qonversion/entitlements-intro.json", user: nil, at: true, "active", verdict: "agree", transactions: 2, renewals: 1),
            FixtureCase("qonversion/entitlements-grace-period.json", user: nil, at: true, "grace_period", verdict: "agree", transactions: 2, renewals: 1),
            FixtureCase("qonversion/entitlements-billing-retry.json", user: nil, at: true, "billing_retry", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("qonversion/entitlements-expired.json", user: nil, at: true, "expired", verdict: "agree", transactions: 2, renewals: 1),
            FixtureCase("qonversion/entitlements-refunded.json", user: nil, at: true, "revoked", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("qonversion/entitlements-lifetime.json", user: nil, at: true, "active", verdict: "agree", transactions: 1, renewals: 0),
            FixtureCase("qonversion/entitlements-family-sharing.json", user: nil, at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("qonversion/entitlements-sandbox.json", user: nil, at: true, "active", verdict: "agree", transactions: 2, renewals: 1),
            FixtureCase("qonversion/entitlements-promotional.json", user: nil, at: true, "active", verdict: "agree", transactions: 1, renewals: 0),
            FixtureCase("qonversion/permissions-trailing-commas.json", user: nil, "active", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("qonversion/permissions-trailing-commas.json", user: nil, "expired", of: "sports", verdict: "agree", transactions: 2, renewals: 2),
            FixtureCase("qonversion/launch-wrapped.json", user: nil, "active", verdict: "disagree", transactions: 1, renewals: 1),
        ]

        @Test(arguments: cases)
        func fixture(_ fixture: FixtureCase) { fixture.check() }

        @Test func trailingCommasAndTheProductCatalog() {
            let store = Store()
            let (result, summary) = store.importJSON([fixtures + "/qonversion/permissions-trailing-commas.json", "--user", "q"])
            #expect(result.exitCode == 0)
            #expect(summary.document().value["time_source"]?.stringValue == "timestamp")
            #expect(summary.document().configAdded == ["sports += com.example.sports.monthly"])
            let products = store.profile("q")?.transactions.compactMap(\.productID)
            #expect(products == ["com.example.premium.annual", "com.example.sports.monthly"])
            #expect(store.profile("q")?.transactions.first?.transactionID == "qonversion:com.example.premium.annual:2025-09-01T10:00:00Z")
        }

        @Test func renewStatesAndOfferCodes() {
            let store = Store()
            _ = store.importing([fixtures + "/qonversion/entitlements-canceled.json", "--user", "q", "--at", documentTimeText])
            let profile = store.profile("q")
            #expect(profile?.transactions.first?.offerCode == "SPRING26")
            let renewal = profile?.renewalInfo["2000000000300201"]
            #expect(renewal?.willRenew == false)
            #expect(renewal?.unsubscribedAt == ISODate.parse("2026-03-06T21:14:00Z"))
            let grace = Store()
            _ = grace.importing([fixtures + "/qonversion/entitlements-grace-period.json", "--user", "q", "--at", documentTimeText])
            #expect(grace.profile("q")?.renewalInfo["2000000000300501"]?.gracePeriodExpiresAt == ISODate.parse("2026-03-30T12:00:00Z"))
            let lifetime = Store()
            _ = lifetime.importing([fixtures + "/qonversion/entitlements-lifetime.json", "--user", "q", "--at", documentTimeText])
            #expect(lifetime.profile("q")?.transactions.first?.type == .nonConsumablePurchase)
            #expect(lifetime.profile("q")?.renewalInfo.isEmpty == true)
        }

        @Test func manualGrantsAndFamilySharing() {
            let store = Store()
            _ = store.importing([fixtures + "/qonversion/entitlements-promotional.json", "--user", "q", "--at", documentTimeText])
            let grant = store.profile("q")?.transactions.first
            #expect(grant?.transactionID == "qonversion:manual:premium:2026-03-01T00:00:00Z")
            #expect(grant?.type == .manualGrant && grant?.grantedBy == "qonversion" && grant?.store == .manual)
            let family = Store()
            _ = family.importing([fixtures + "/qonversion/entitlements-family-sharing.json", "--user", "q", "--at", documentTimeText])
            #expect(family.profile("q")?.transactions.first?.ownershipType == .familySharing)
            let status = runCLI(["status", "q", "--store", family.path, "--at", documentTimeText, "--json"])
            #expect((try? JSONParser.parse(status.stdout))?["access_levels"]?["premium"]?["grant_type"]?.stringValue == "family_sharing")
        }

        @Test func theUserIsNeverQonversionsOwnId() {
            let store = Store()
            let result = store.importing([fixtures + "/qonversion/launch-wrapped.json"])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("does not say which user it belongs to"))
            #expect(store.profileNames().isEmpty)
        }
    }
}
