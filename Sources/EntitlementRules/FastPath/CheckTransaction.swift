import FoundationEssentials
import Glibc

/// One transaction as `check --stdin` and `status --json` need it: byte ranges into the
/// profile file and parsed dates, no `String` and no box. Read by `CheckProfileScanner`,
/// judged by `OneEntitlementEngine` and `FlatStatusEngine` with the rules of `StatusEngine`.
package struct CheckTransaction {
    /// The documented types (`TransactionType.Kind`, in its order); every other type is `other`.
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

    // Kept compact (112 bytes, not 264): `status --json` holds 10,000 at once, and each
    // page of them first touched costs a fault. The properties below read and write them.
    private var spans: (id: ByteSpan, original: ByteSpan, product: ByteSpan, store: ByteSpan, entitlement: ByteSpan,
                        revocationReason: ByteSpan, price: ByteSpan, currency: ByteSpan)
    private var dates: (purchasedAt: Date, startsAt: StoredDate, expiresAt: StoredDate, revokedAt: StoredDate, grantedAt: StoredDate)
    var kind: Kind
    /// `environment` is `sandbox`.
    package var isSandbox: Bool
    /// `ownership_type` is `family_sharing`.
    var isFamilySharing: Bool
    /// `offer_code` is a non-empty string.
    var hasOfferCode: Bool
    var isUpgraded: Bool?

    init(id: Range<Int>, original: Range<Int>, product: Range<Int>?, store: Range<Int>?, entitlement: Range<Int>?, kind: Kind,
         purchasedAt: Date, startsAt: Date?, expiresAt: Date?, revokedAt: Date?, revocationReason: Range<Int>?, grantedAt: Date?,
         isSandbox: Bool, isFamilySharing: Bool, hasOfferCode: Bool, isUpgraded: Bool?, price: Range<Int>?, currency: Range<Int>?) {
        spans = (ByteSpan(id), ByteSpan(original), ByteSpan(product), ByteSpan(store), ByteSpan(entitlement), ByteSpan(revocationReason),
                 ByteSpan(price), ByteSpan(currency))
        dates = (purchasedAt, StoredDate(startsAt), StoredDate(expiresAt), StoredDate(revokedAt), StoredDate(grantedAt))
        self.kind = kind
        self.isSandbox = isSandbox
        self.isFamilySharing = isFamilySharing
        self.hasOfferCode = hasOfferCode
        self.isUpgraded = isUpgraded
    }

    package var id: Range<Int> { spans.id.present }
    package var original: Range<Int> { spans.original.present }
    /// Nil when absent or null.
    package var product: Range<Int>? { spans.product.range }
    /// Nil when absent or null (the store is then `manual`).
    package var store: Range<Int>? { spans.store.range }
    var entitlement: Range<Int>? { spans.entitlement.range }
    package var purchasedAt: Date { dates.purchasedAt }
    var startsAt: Date? { dates.startsAt.date }
    package var expiresAt: Date? { dates.expiresAt.date }
    package var revokedAt: Date? {
        get { dates.revokedAt.date }
        set { dates.revokedAt = StoredDate(newValue) }
    }
    var revocationReason: Range<Int>? {
        get { spans.revocationReason.range }
        set { spans.revocationReason = ByteSpan(newValue) }
    }
    var grantedAt: Date? { dates.grantedAt.date }
    /// The `price` literal (read by `status --json` only), and `currency` (any text).
    var price: Range<Int>? { spans.price.range }
    var currency: Range<Int>? { spans.currency.range }

    package var effectiveStart: Date { startsAt ?? purchasedAt }
    var isManualGrant: Bool { kind == .manualGrant }
    /// `status --json` lists it under `subscriptions` (`ProfileJSON.isSubscription`): a renewing
    /// type, or an undocumented one with an expiry.
    var showsAsSubscription: Bool { kind.rawValue <= Kind.introRenewed.rawValue || (kind == .other && expiresAt != nil) }
    package var isConsumable: Bool { kind == .consumablePurchase }
    /// `StatusEngine.periodType(of:)`.
    package var periodType: PeriodType { FlatStatusEngine.periodType(of: kind) }
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
