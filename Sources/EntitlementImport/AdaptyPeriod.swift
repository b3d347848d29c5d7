import FoundationEssentials
import EntitlementJSON
import EntitlementModel

/// Adapty's field names (server-side API, Profile object); ingest reads its webhooks' access
/// levels with them too.
package enum AdaptyKey {
    package static let profileID = "profile_id"
    package static let customerUserID = "customer_user_id"
    package static let paidAccessLevels = "paid_access_levels"
    static let subscriptions = "subscriptions"
    static let nonSubscriptions = "non_subscriptions"
    package static let customAttributes = "custom_attributes"
    package static let data = "data"
    package static let isActive = "is_active"
    package static let activatedAt = "activated_at"
    package static let renewedAt = "renewed_at"
    package static let expiresAt = "expires_at"
    package static let startsAt = "starts_at"
    package static let unsubscribedAt = "unsubscribed_at"
    package static let billingIssueDetectedAt = "billing_issue_detected_at"
    package static let isLifetime = "is_lifetime"
    package static let isInGracePeriod = "is_in_grace_period"
    package static let willRenew = "will_renew"
    package static let isRefund = "is_refund"
    package static let store = "store"
    package static let vendorProductID = "vendor_product_id"
    static let vendorTransactionID = "vendor_transaction_id"
    static let vendorOriginalTransactionID = "vendor_original_transaction_id"
    static let activeIntroductoryOfferType = "active_introductory_offer_type"
    package static let isSandbox = "is_sandbox"
    static let activePromotionalOfferID = "active_promotional_offer_id"
    static let offerID = "offer_id"
    static let purchaseID = "purchase_id"
    package static let purchasedAt = "purchased_at"
    static let isOneTime = "is_one_time"
    /// `store` of an access level Adapty itself granted.
    package static let adaptyStore = "adapty"
    static let freeTrial = "free_trial"
    static let introOffers: Set<String> = ["pay_as_you_go", "pay_up_front"]
}

/// One Adapty subscription or access level: the fields they share, in validation order (section 9.2).
/// Ingest reads an `access_level_updated` webhook's snapshot with it, as import reads a profile's.
package struct AdaptyPeriod {
    typealias K = AdaptyKey

    package var isActive: Bool?
    package var activatedAt: Date
    package var renewedAt: Date?
    package var expiresAt: Date?
    package var startsAt: Date?
    package var unsubscribedAt: Date?
    package var billingIssueDetectedAt: Date?
    package var isLifetime: Bool
    package var isInGracePeriod: Bool
    package var willRenew: Bool?
    package var isRefund: Bool
    package var store: String?
    package var productID: String?
    package var transactionID: String?
    package var originalTransactionID: String?
    var introductoryOffer: String?
    package var sandbox: Bool?
    package var offerCode: String?

    /// Reads the shared fields; `is_active` is required for access levels only.
    package init(_ r: FieldReader, isAccessLevel: Bool) throws(FieldError) {
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
    package func transaction(id: String, original: String, product: String, purchasedAt: Date, vendor: JSONValue) -> MappedTransaction {
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
    package func renewal(original: String) -> MappedRenewal? {
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
