import EntitlementModel
import EntitlementRules

/// Apple's field names (App Store Server API and Server Notifications V2).
package enum AppleKey {
    // JWSTransactionDecodedPayload
    package static let transactionId = "transactionId"
    package static let originalTransactionId = "originalTransactionId"
    package static let productId = "productId"
    package static let purchaseDate = "purchaseDate"
    package static let expiresDate = "expiresDate"
    package static let type = "type"
    package static let offerType = "offerType"
    package static let offerDiscountType = "offerDiscountType"
    package static let transactionReason = "transactionReason"
    package static let offerIdentifier = "offerIdentifier"
    package static let revocationDate = "revocationDate"
    package static let revocationReason = "revocationReason"
    package static let isUpgraded = "isUpgraded"
    package static let inAppOwnershipType = "inAppOwnershipType"
    package static let environment = "environment"
    package static let price = "price"
    package static let currency = "currency"
    package static let appAccountToken = "appAccountToken"
    package static let signedDate = "signedDate"
    // JWSRenewalInfoDecodedPayload
    package static let autoRenewStatus = "autoRenewStatus"
    package static let isInBillingRetryPeriod = "isInBillingRetryPeriod"
    package static let gracePeriodExpiresDate = "gracePeriodExpiresDate"
    // Notifications, statuses, history
    package static let notificationType = "notificationType"
    package static let subtype = "subtype"
    package static let data = "data"
    package static let status = "status"
    package static let signedTransactionInfo = "signedTransactionInfo"
    package static let signedRenewalInfo = "signedRenewalInfo"
    package static let signedPayload = "signedPayload"
    package static let lastTransactions = "lastTransactions"
    package static let signedTransactions = "signedTransactions"
    package static let hasMore = "hasMore"
}

/// Apple's values that the mapping reads (section 8).
package enum AppleValue {
    package static let nonConsumable = "Non-Consumable"
    package static let consumable = "Consumable"
    package static let nonRenewing = "Non-Renewing Subscription"
    package static let autoRenewable = "Auto-Renewable Subscription"
    package static let freeTrial = "FREE_TRIAL"
    package static let renewal = "RENEWAL"
    package static let purchased = "PURCHASED"
    package static let familyShared = "FAMILY_SHARED"
    package static let production = "Production"
    package static let testEnvironments: Set<String> = ["Sandbox", "Xcode", "LocalTesting"]
    /// Our type for Apple's non-renewing subscriptions (a kept, undocumented type).
    package static let nonRenewingType = TransactionType(rawValue: "non_renewing_subscription")
    /// `offerType` 1: an introductory offer.
    package static let introductoryOffer = 1

    /// Status codes of the subscription-status API, as (vendor state, our accepted states).
    package static func status(_ code: Int) -> (String, [AccessState])? {
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
