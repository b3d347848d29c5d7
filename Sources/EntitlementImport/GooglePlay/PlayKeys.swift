import EntitlementRules

/// Field names of Google Play's `SubscriptionPurchaseV2` (purchases.subscriptionsv2.get).
enum PlayKey {
    static let kind = "kind"
    static let purchaseToken = "purchaseToken"
    static let subscriptionState = "subscriptionState"
    static let lineItems = "lineItems"
    static let productId = "productId"
    static let expiryTime = "expiryTime"
    static let autoRenewingPlan = "autoRenewingPlan"
    static let autoRenewEnabled = "autoRenewEnabled"
    static let offerDetails = "offerDetails"
    static let offerPhase = "offerPhase"
    static let freeTrial = "freeTrial"
    static let introductoryPrice = "introductoryPrice"
    static let startTime = "startTime"
    static let pausedStateContext = "pausedStateContext"
    static let autoResumeTime = "autoResumeTime"
    static let canceledStateContext = "canceledStateContext"
    static let userInitiatedCancellation = "userInitiatedCancellation"
    static let cancelTime = "cancelTime"
    static let acknowledgementState = "acknowledgementState"
    static let testPurchase = "testPurchase"
    static let linkedPurchaseToken = "linkedPurchaseToken"
    static let externalAccountIdentifiers = "externalAccountIdentifiers"
    static let obfuscatedExternalAccountId = "obfuscatedExternalAccountId"
    static let latestOrderId = "latestOrderId"
}

/// Google Play's `subscriptionState` values, without the `SUBSCRIPTION_STATE_` prefix, and
/// what each means here (docs/import.md, "Google Play").
enum PlayState: String, CaseIterable, Sendable {
    case active = "ACTIVE", canceled = "CANCELED", inGracePeriod = "IN_GRACE_PERIOD", onHold = "ON_HOLD"
    case paused = "PAUSED", expired = "EXPIRED", pending = "PENDING", pendingPurchaseCanceled = "PENDING_PURCHASE_CANCELED"

    static let prefix = "SUBSCRIPTION_STATE_"

    /// The state of `text`, with or without the prefix; nil for `UNSPECIFIED` and unknown values.
    init?(vendorText text: String) {
        let bare = text.hasPrefix(Self.prefix) ? String(text.dropFirst(Self.prefix.count)) : text
        self.init(rawValue: bare)
    }

    /// Our states that agree with Google's, for the verdict rows (docs/status-rules.md's table).
    var accepted: [AccessState] {
        switch self {
        case .active, .canceled: return [.active]
        case .inGracePeriod: return [.gracePeriod]
        case .onHold: return [.billingRetry]
        case .paused: return [.paused]
        case .expired: return [.expired, .revoked]
        case .pending, .pendingPurchaseCanceled: return VendorState.noAccess
        }
    }

    /// True when no purchase exists yet to record: the payment is still pending or was abandoned.
    var isPending: Bool { self == .pending || self == .pendingPurchaseCanceled }
}
