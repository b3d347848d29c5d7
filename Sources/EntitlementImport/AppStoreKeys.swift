import EntitlementModel
import EntitlementRules

/// Apple's field names (App Store Server API and Server Notifications V2).
package enum AppleKey {
    // JWSTransactionDecodedPayload
    static let transactionId = "transactionId"
    static let originalTransactionId = "originalTransactionId"
    static let productId = "productId"
    package static let purchaseDate = "purchaseDate"
    static let expiresDate = "expiresDate"
    package static let type = "type"
    static let offerType = "offerType"
    static let offerDiscountType = "offerDiscountType"
    static let transactionReason = "transactionReason"
    static let offerIdentifier = "offerIdentifier"
    static let revocationDate = "revocationDate"
    package static let revocationReason = "revocationReason"
    package static let isUpgraded = "isUpgraded"
    static let inAppOwnershipType = "inAppOwnershipType"
    package static let environment = "environment"
    package static let price = "price"
    package static let currency = "currency"
    package static let appAccountToken = "appAccountToken"
    static let signedDate = "signedDate"
    // JWSRenewalInfoDecodedPayload
    static let autoRenewStatus = "autoRenewStatus"
    static let isInBillingRetryPeriod = "isInBillingRetryPeriod"
    static let gracePeriodExpiresDate = "gracePeriodExpiresDate"
    // Notifications, statuses, history
    package static let notificationType = "notificationType"
    static let subtype = "subtype"
    package static let data = "data"
    package static let status = "status"
    static let signedTransactionInfo = "signedTransactionInfo"
    static let signedRenewalInfo = "signedRenewalInfo"
    package static let signedPayload = "signedPayload"
    static let lastTransactions = "lastTransactions"
    static let signedTransactions = "signedTransactions"
    package static let hasMore = "hasMore"
}

/// Apple's values that the mapping reads (section 8).
enum AppleValue {
    static let nonConsumable = "Non-Consumable"
    static let consumable = "Consumable"
    static let nonRenewing = "Non-Renewing Subscription"
    static let autoRenewable = "Auto-Renewable Subscription"
    static let freeTrial = "FREE_TRIAL"
    static let renewal = "RENEWAL"
    static let purchased = "PURCHASED"
    static let familyShared = "FAMILY_SHARED"
    static let production = "Production"
    static let testEnvironments: Set<String> = ["Sandbox", "Xcode", "LocalTesting"]
    /// Our type for Apple's non-renewing subscriptions (a kept, undocumented type).
    static let nonRenewingType = TransactionType(rawValue: "non_renewing_subscription")
    /// `offerType` 1: an introductory offer.
    static let introductoryOffer = 1

    /// Status codes of the subscription-status API, as (vendor state, our accepted states).
    static func status(_ code: Int) -> (String, [AccessState])? {
        switch code {
        case 1: return ("active", [.active])
        case 2: return ("expired", [.expired])
        case 3: return ("billing_retry", [.billingRetry])
        case 4: return ("grace_period", [.gracePeriod])
        case 5: return ("revoked", [.revoked])
        default: return nil
        }
    }
}
