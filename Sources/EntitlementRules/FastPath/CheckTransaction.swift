import FoundationEssentials
import Glibc

/// One transaction as `check --stdin` needs it: byte ranges into the profile file and
/// parsed dates, no `String` and no box. Read by `CheckProfileScanner`, judged by
/// `OneEntitlementEngine` with the rules of `StatusEngine`.
struct CheckTransaction {
    /// The types the engine tells apart; every other type is `other`.
    enum Kind: UInt8 {
        case subscriptionStarted, subscriptionRenewed, trialStarted, introStarted, introRenewed
        case nonConsumablePurchase, consumablePurchase, manualGrant, other

        /// The kind of a type name's bytes (ASCII: equal bytes are equal strings).
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            switch bytes.count {
            case 12 where Self.same(bytes, "manual_grant"): self = .manualGrant
            case 13 where Self.same(bytes, "intro_started"): self = .introStarted
            case 13 where Self.same(bytes, "intro_renewed"): self = .introRenewed
            case 13 where Self.same(bytes, "trial_started"): self = .trialStarted
            case 19 where Self.same(bytes, "consumable_purchase"): self = .consumablePurchase
            case 20 where Self.same(bytes, "subscription_started"): self = .subscriptionStarted
            case 20 where Self.same(bytes, "subscription_renewed"): self = .subscriptionRenewed
            case 23 where Self.same(bytes, "non_consumable_purchase"): self = .nonConsumablePurchase
            default: self = .other
            }
        }

        static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
            bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
        }
    }

    var id: Range<Int>
    var original: Range<Int>
    /// Nil when absent or null.
    var product: Range<Int>?
    /// Nil when absent or null (the store is then `manual`).
    var store: Range<Int>?
    var entitlement: Range<Int>?
    var kind: Kind
    var purchasedAt: Date
    var startsAt: Date?
    var expiresAt: Date?
    var revokedAt: Date?
    var revocationReason: Range<Int>?
    var grantedAt: Date?
    /// `environment` is `sandbox`.
    var isSandbox: Bool
    /// `ownership_type` is `family_sharing`.
    var isFamilySharing: Bool
    /// `offer_code` is a non-empty string.
    var hasOfferCode: Bool
    var isUpgraded: Bool?

    var effectiveStart: Date { startsAt ?? purchasedAt }
    var isManualGrant: Bool { kind == .manualGrant }
    var isConsumable: Bool { kind == .consumablePurchase }
    /// `Transaction.recordedAt`.
    var recordedAt: Date { isManualGrant ? (grantedAt ?? purchasedAt) : purchasedAt }
}

/// One subscription's renewal info, keyed by the byte range of its `original_transaction_id`.
struct CheckRenewal {
    var key: Range<Int>
    var willRenew: Bool?
    var unsubscribedAt: Date?
    var billingIssueDetectedAt: Date?
    var gracePeriodExpiresAt: Date?
    var isInBillingRetry: Bool?
    var isPaused: Bool?
    var pausedAt: Date?
    var resumesAt: Date?

    /// `RenewalInfo.isPaused(at:)`.
    func isPaused(at date: Date) -> Bool {
        isPaused == true && (resumesAt.map { $0 > date } ?? true)
    }
}
