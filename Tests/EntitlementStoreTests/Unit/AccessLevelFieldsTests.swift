import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// The descriptive fields of an access level: renew state, period and grant type,
    /// sandbox, activation and renewal, the entitlement list, and the JSON keys.
    struct AccessLevelFieldsTests {
        typealias F = Fixture

        static let subscription = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")

        // MARK: renew_state

        struct RenewCase: Sendable, CustomTestStringConvertible {
            var name: String
            var renewal: RenewalInfo?
            var expected: RenewState
            var testDescription: String { name }
        }

        static let renewCases: [RenewCase] = [
            RenewCase(name: "will renew", renewal: RenewalInfo(willRenew: true), expected: .willRenew),
            RenewCase(name: "auto-renew off", renewal: RenewalInfo(willRenew: false, unsubscribedAt: F.date("2026-01-10T00:00:00Z")), expected: .canceled),
            RenewCase(name: "unsubscribed, will_renew absent", renewal: RenewalInfo(unsubscribedAt: F.date("2026-01-10T00:00:00Z")), expected: .canceled),
            RenewCase(name: "billing issue", renewal: RenewalInfo(willRenew: true, billingIssueDetectedAt: F.date("2026-01-14T00:00:00Z")), expected: .billingIssue),
            RenewCase(name: "in billing retry", renewal: RenewalInfo(willRenew: true, isInBillingRetry: true), expected: .billingIssue),
            RenewCase(name: "canceled beats billing issue", renewal: RenewalInfo(willRenew: false, billingIssueDetectedAt: F.date("2026-01-14T00:00:00Z")), expected: .canceled),
            RenewCase(name: "no renewal info", renewal: nil, expected: .unknown),
            RenewCase(name: "empty renewal info", renewal: RenewalInfo(), expected: .unknown),
        ]

        @Test(arguments: renewCases)
        func renewStateOfASubscription(_ item: RenewCase) {
            let level = F.level([Self.subscription], renewals: item.renewal.map { ["t1": $0] } ?? [:], at: "2026-01-15T00:00:00Z")
            #expect(level.renewState == item.expected)
            #expect(level.willRenew == (item.renewal?.willRenew ?? false))
            #expect(level.unsubscribedAt == item.renewal?.unsubscribedAt)
            #expect(level.billingIssueDetectedAt == item.renewal?.billingIssueDetectedAt)
        }

        @Test func gracePeriodIsABillingIssue() {
            let renewal = RenewalInfo(willRenew: true, gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            #expect(F.level([Self.subscription], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z").renewState == .billingIssue)
        }

        @Test(arguments: [
            F.grant("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z"),
            F.purchase("t1", product: F.lifetime, type: .nonConsumablePurchase, from: "2026-01-01T00:00:00Z", to: nil),
            F.purchase("t1", product: F.lifetime, type: .nonConsumablePurchase, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z"),
            F.purchase("t1", type: TransactionType(rawValue: "something_new"), from: "2026-01-01T00:00:00Z", to: nil),
        ])
        func oneTimeAccessIsNonRenewableAndIgnoresRenewalInfo(_ transaction: Transaction) {
            let renewal = RenewalInfo(willRenew: true, unsubscribedAt: F.date("2026-01-10T00:00:00Z"), gracePeriodExpiresAt: F.date("2026-03-01T00:00:00Z"))
            let level = F.level([transaction], renewals: ["t1": renewal], at: "2026-01-15T00:00:00Z")
            #expect(level.renewState == .nonRenewable)
            #expect(!level.willRenew)
            #expect(level.unsubscribedAt == nil)
            #expect(level.gracePeriodExpiresAt == nil)
        }

        @Test func renewalInfoIsFoundByOriginalTransactionID() {
            let renewed = F.purchase("t2", type: .subscriptionRenewed, from: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z", original: "t1")
            let level = F.level([Self.subscription, renewed], renewals: ["t1": RenewalInfo(willRenew: true), "t2": RenewalInfo(willRenew: false)],
                                at: "2026-02-15T00:00:00Z")
            #expect(level.renewState == .willRenew)
        }

        // MARK: period_type, grant_type, is_sandbox

        @Test(arguments: [
            (TransactionType.subscriptionStarted, PeriodType.normal), (.subscriptionRenewed, .normal), (.trialStarted, .trial),
            (.introStarted, .intro), (.introRenewed, .intro), (.nonConsumablePurchase, .normal), (TransactionType(rawValue: "other"), .normal),
        ])
        func periodTypeFollowsTheTransactionType(type: TransactionType, expected: PeriodType) {
            let purchase = F.purchase("t1", type: type, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(F.level([purchase], at: "2026-01-15T00:00:00Z").periodType == expected)
        }

        @Test func manualGrantIsPromotionalAndManual() {
            let level = F.level([F.grant("g", from: "2026-01-01T00:00:00Z", to: nil)], at: "2026-01-15T00:00:00Z")
            #expect(level.periodType == .promotional)
            #expect(level.grantType == .manual)
            #expect(level.store == .manual)
            #expect(level.productID == nil)
        }

        @Test(arguments: [
            (OwnershipType.owner, nil as String?, GrantType.purchase),
            (.owner, "", .purchase),
            (.owner, "SPRING26", .offerCode),
            (.familySharing, nil, .familySharing),
            (.familySharing, "SPRING26", .familySharing),
        ])
        func grantTypeOfAStorePurchase(ownership: OwnershipType, offerCode: String?, expected: GrantType) {
            var purchase = Self.subscription
            purchase.ownershipType = ownership
            purchase.offerCode = offerCode
            #expect(F.level([purchase], at: "2026-01-15T00:00:00Z").grantType == expected)
        }

        @Test(arguments: [(Environment.sandbox, true), (.production, false), (Environment(rawValue: "xcode"), false)])
        func isSandbox(environment: Environment, expected: Bool) {
            let purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", environment: environment)
            #expect(F.level([purchase], at: "2026-01-15T00:00:00Z").isSandbox == expected)
        }

        // MARK: activated_at, renewed_at

        @Test func firstTransactionIsActivatedAndNotRenewed() {
            let level = F.level([Self.subscription], at: "2026-01-15T00:00:00Z")
            #expect(level.activatedAt == F.date("2026-01-01T00:00:00Z"))
            #expect(level.renewedAt == nil)
            #expect(level.startsAt == F.date("2026-01-01T00:00:00Z"))
        }

        @Test func renewalKeepsTheChainsActivationAndRecordsTheRenewal() {
            let renewed = F.purchase("t2", type: .subscriptionRenewed, from: "2026-01-31T23:00:00Z", starts: "2026-02-01T00:00:00Z",
                                     to: "2026-03-01T00:00:00Z", original: "t1")
            let other = F.purchase("x1", product: F.annual, from: "2025-01-01T00:00:00Z", to: "2025-12-01T00:00:00Z")
            let level = F.level([other, renewed, Self.subscription], at: "2026-02-15T00:00:00Z")
            #expect(level.transactionID == "t2")
            #expect(level.activatedAt == F.date("2026-01-01T00:00:00Z"))
            #expect(level.renewedAt == F.date("2026-01-31T23:00:00Z"))
            #expect(level.startsAt == F.date("2026-02-01T00:00:00Z"))
        }

        // MARK: Entitlement list

        @Test func entitlementIDsAreConfiguredOnesThenManualGrantOnlyOnes() {
            let profile = F.profile([
                F.grant("g1", entitlement: "beta", from: "2026-01-01T00:00:00Z", to: nil),
                F.grant("g2", entitlement: "premium", from: "2026-01-01T00:00:00Z", to: nil),
                F.grant("g3", entitlement: "alpha", from: "2026-01-01T00:00:00Z", to: nil),
                F.grant("g4", entitlement: "beta", from: "2026-01-02T00:00:00Z", to: nil),
                F.purchase("t1", product: "com.example.unmapped", from: "2026-01-01T00:00:00Z", to: nil),
            ])
            #expect(F.engine.entitlementIDs(for: profile) == ["premium", "sports", "beta", "alpha"])
            let levels = F.engine.accessLevels(for: profile, at: F.date("2026-01-15T00:00:00Z"))
            #expect(levels.map(\.id) == ["premium", "sports", "beta", "alpha"])
            #expect(levels.map(\.state) == [.active, .never, .active, .active])
        }

        // MARK: JSON

        static let documentedKeys: Set<String> = [
            "id", "state", "is_active", "is_lifetime", "expires_at", "starts_at", "activated_at", "renewed_at", "will_renew",
            "is_in_grace_period", "grace_period_expires_at", "revoked_at", "revocation_reason", "unsubscribed_at",
            "billing_issue_detected_at", "resumes_at", "store", "product_id", "renew_state", "period_type", "is_sandbox", "grant_type", "transaction_id",
        ]

        @Test(arguments: AccessState.allCases)
        func jsonHasEveryDocumentedKeyWhateverTheState(state: AccessState) {
            let json = AccessLevel(id: "premium", state: state).json
            #expect(Set(json.keys) == Self.documentedKeys)
            #expect(json.keys.count == Self.documentedKeys.count)
            #expect(json["state"] == .string(state.rawValue))
            #expect(json["is_active"] == .bool(state == .active || state == .gracePeriod))
        }

        @Test func neverLevelJSONIsNullWhereUnknown() {
            let json = AccessLevel(id: "premium", state: .never).json
            for key in ["expires_at", "starts_at", "activated_at", "renewed_at", "store", "product_id", "period_type", "grant_type", "transaction_id"] {
                #expect(json[key] == .null, "\(key)")
            }
            #expect(json["renew_state"] == .string("unknown"))
            #expect(json["is_sandbox"] == .bool(false))
        }

        @Test func activeLevelJSONSpellsDatesAndValuesAsStored() {
            var purchase = Self.subscription
            purchase.offerCode = "SPRING26"
            let json = F.level([purchase], renewals: ["t1": RenewalInfo(willRenew: true)], at: "2026-01-15T00:00:00Z").json
            #expect(json["expires_at"] == .string("2026-02-01T00:00:00Z"))
            #expect(json["store"] == .string("app_store"))
            #expect(json["product_id"] == .string(F.monthly))
            #expect(json["renew_state"] == .string("will_renew"))
            #expect(json["period_type"] == .string("normal"))
            #expect(json["grant_type"] == .string("offer_code"))
            #expect(json["will_renew"] == .bool(true))
            #expect(json["transaction_id"] == .string("t1"))
        }
    }
}
