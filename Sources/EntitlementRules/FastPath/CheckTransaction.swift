import FoundationEssentials
import Glibc

/// One transaction as `check --stdin` and `status --json` need it: byte ranges into the
/// profile file and parsed dates, no `String` and no box. Read by `CheckProfileScanner`,
/// judged by `OneEntitlementEngine` and `FlatStatusEngine` with the rules of `StatusEngine`.
package struct CheckTransaction {
    /// The documented types (`TransactionType.Kind`, in its order); every other type is `other`.
    package enum Kind: UInt8 {
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

    package var id: Range<Int>
    package var original: Range<Int>
    /// Nil when absent or null.
    package var product: Range<Int>?
    /// Nil when absent or null (the store is then `manual`).
    package var store: Range<Int>?
    var entitlement: Range<Int>?
    package var kind: Kind
    package var purchasedAt: Date
    var startsAt: Date?
    package var expiresAt: Date?
    package var revokedAt: Date?
    var revocationReason: Range<Int>?
    var grantedAt: Date?
    /// `environment` is `sandbox`.
    package var isSandbox: Bool
    /// `ownership_type` is `family_sharing`.
    var isFamilySharing: Bool
    /// `offer_code` is a non-empty string.
    var hasOfferCode: Bool
    var isUpgraded: Bool?
    /// The `price` literal (read by `status --json` only), and `currency` (any text).
    package var price: Range<Int>?
    package var currency: Range<Int>?

    package var effectiveStart: Date { startsAt ?? purchasedAt }
    package var isManualGrant: Bool { kind == .manualGrant }
    /// `status --json` lists it under `subscriptions` (`ProfileJSON.isSubscription`): a renewing
    /// type, or an undocumented one with an expiry.
    package var showsAsSubscription: Bool { kind.rawValue <= Kind.introRenewed.rawValue || (kind == .other && expiresAt != nil) }
    package var isConsumable: Bool { kind == .consumablePurchase }
    /// `Transaction.recordedAt`.
    var recordedAt: Date { isManualGrant ? (grantedAt ?? purchasedAt) : purchasedAt }
}

/// One subscription's renewal info, keyed by the byte range of its `original_transaction_id`.
package struct CheckRenewal {
    var key: Range<Int>
    package var willRenew: Bool?
    package var unsubscribedAt: Date?
    package var billingIssueDetectedAt: Date?
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
