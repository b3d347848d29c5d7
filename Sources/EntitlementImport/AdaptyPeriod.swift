import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// Adapty's field names (server-side API, Profile object).
enum AdaptyKey {
    static let profileID = "profile_id"
    static let customerUserID = "customer_user_id"
    static let paidAccessLevels = "paid_access_levels"
    static let subscriptions = "subscriptions"
    static let nonSubscriptions = "non_subscriptions"
    static let customAttributes = "custom_attributes"
    static let data = "data"
    static let isActive = "is_active"
    static let activatedAt = "activated_at"
    static let renewedAt = "renewed_at"
    static let expiresAt = "expires_at"
    static let startsAt = "starts_at"
    static let unsubscribedAt = "unsubscribed_at"
    static let billingIssueDetectedAt = "billing_issue_detected_at"
    static let isLifetime = "is_lifetime"
    static let isInGracePeriod = "is_in_grace_period"
    static let willRenew = "will_renew"
    static let isRefund = "is_refund"
    static let store = "store"
    static let vendorProductID = "vendor_product_id"
    static let vendorTransactionID = "vendor_transaction_id"
    static let vendorOriginalTransactionID = "vendor_original_transaction_id"
    static let activeIntroductoryOfferType = "active_introductory_offer_type"
    static let isSandbox = "is_sandbox"
    static let activePromotionalOfferID = "active_promotional_offer_id"
    static let offerID = "offer_id"
    static let purchaseID = "purchase_id"
    static let purchasedAt = "purchased_at"
    static let isOneTime = "is_one_time"
    /// `store` of an access level Adapty itself granted.
    static let adaptyStore = "adapty"
    static let freeTrial = "free_trial"
    static let introOffers: Set<String> = ["pay_as_you_go", "pay_up_front"]
}

/// One Adapty subscription or access level: the fields they share, in validation order (section 9.2).
struct AdaptyPeriod {
    typealias K = AdaptyKey

    var isActive: Bool?
    var activatedAt: Date
    var renewedAt: Date?
    var expiresAt: Date?
    var startsAt: Date?
    var unsubscribedAt: Date?
    var billingIssueDetectedAt: Date?
    var isLifetime: Bool
    var isInGracePeriod: Bool
    var willRenew: Bool?
    var isRefund: Bool
    var store: String?
    var productID: String?
    var transactionID: String?
    var originalTransactionID: String?
    var introductoryOffer: String?
    var sandbox: Bool?
    var offerCode: String?

    /// Reads the shared fields; `is_active` is required for access levels only.
    init(_ r: FieldReader, isAccessLevel: Bool) throws(FieldError) {
        isActive = isAccessLevel ? try r.vendorRequiredBool(K.isActive) : try r.vendorBool(K.isActive)
        activatedAt = try r.vendorRequiredISODate(K.activatedAt)
        renewedAt = try r.vendorISODate(K.renewedAt)
        expiresAt = try r.vendorISODate(K.expiresAt)
        startsAt = try r.vendorISODate(K.startsAt)
        unsubscribedAt = try r.vendorISODate(K.unsubscribedAt)
        billingIssueDetectedAt = try r.vendorISODate(K.billingIssueDetectedAt)
        isLifetime = try r.vendorBool(K.isLifetime) ?? false
        isInGracePeriod = try r.vendorBool(K.isInGracePeriod) ?? false
        willRenew = try r.vendorBool(K.willRenew)
        isRefund = try r.vendorBool(K.isRefund) ?? false
        store = try r.vendorString(K.store)
        productID = try r.vendorNonEmptyString(K.vendorProductID)
        transactionID = try r.vendorNonEmptyString(K.vendorTransactionID)
        originalTransactionID = try r.vendorNonEmptyString(K.vendorOriginalTransactionID)
        introductoryOffer = try r.vendorString(K.activeIntroductoryOfferType)
        sandbox = try r.vendorBool(K.isSandbox)
        let promotionalOffer = try r.vendorNonEmptyString(K.activePromotionalOfferID)
        let offerID = try r.vendorNonEmptyString(K.offerID)
        offerCode = promotionalOffer ?? offerID
    }

    /// Access ends here for us: never for lifetime; in a grace period, when the charge failed.
    var ourExpiry: Date? {
        guard !isLifetime, let expiresAt else { return nil }
        if isInGracePeriod, let failed = billingIssueDetectedAt, failed < expiresAt { return failed }
        return expiresAt
    }

    var isRenewal: Bool {
        if let transactionID, let originalTransactionID { return transactionID != originalTransactionID }
        guard let renewedAt else { return false }
        return renewedAt > activatedAt
    }

    var type: TransactionType {
        guard ourExpiry != nil else { return .nonConsumablePurchase }
        if introductoryOffer == K.freeTrial { return .trialStarted }
        if let offer = introductoryOffer, K.introOffers.contains(offer) { return isRenewal ? .introRenewed : .introStarted }
        return isRenewal ? .subscriptionRenewed : .subscriptionStarted
    }

    /// Our transaction for this period; `purchasedAt` is `renewed_at` for subscriptions, `activated_at` for snapshots.
    func transaction(id: String, original: String, product: String, purchasedAt: Date, vendor: JSONValue) -> MappedTransaction {
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product,
                                      store: store.map(Store.init) ?? ImportValue.unknownStore, type: type, purchasedAt: purchasedAt,
                                      startsAt: startsAt.flatMap { $0 > purchasedAt ? $0 : nil }, expiresAt: ourExpiry,
                                      environment: sandbox == true ? .sandbox : .production)
        if isRefund {
            transaction.revokedAt = isLifetime ? purchasedAt : (expiresAt ?? purchasedAt)
            transaction.revocationReason = ImportValue.refunded
        }
        transaction.offerCode = offerCode
        var mapped = MappedTransaction(transaction, vendor: vendor)
        mapped.givesEnvironment = sandbox != nil
        return mapped
    }

    /// The renewal fields Adapty expresses, for a period that expires.
    func renewal(original: String) -> MappedRenewal? {
        guard ourExpiry != nil else { return nil }
        var renewal = MappedRenewal(originalTransactionID: original)
        renewal.willRenew = .set(willRenew)
        renewal.unsubscribedAt = .set(unsubscribedAt)
        renewal.billingIssueDetectedAt = .set(billingIssueDetectedAt)
        renewal.isInBillingRetry = .set(billingIssueDetectedAt != nil)
        renewal.gracePeriodExpiresAt = .set(isInGracePeriod ? expiresAt : nil)
        return renewal
    }
}
