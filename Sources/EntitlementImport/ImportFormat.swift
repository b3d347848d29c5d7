import EntitlementModel

/// What each vendor's documents look like to `import` (`Vendor` is the one list of vendors).
extension Vendor {
    /// What `--format F` expects, for the "not a F document" error.
    var expectation: String {
        switch self {
        case .appstore: return "expected an App Store transaction, renewal info, notification, statuses or history document"
        case .revenuecat: return "expected an object with \"subscriber\""
        case .adapty: return "expected an object with \"profile_id\" or \"paid_access_levels\""
        case .qonversion: return "expected an array of entitlements or an object with \"permissions\""
        case .googleplay: return "expected a SubscriptionPurchaseV2 object (with \"subscriptionState\" and \"lineItems\")"
        case .stripe: return "expected a Stripe subscription, a list of them, or an event (\"object\": \"subscription\", \"list\" or \"event\")"
        }
    }
}

/// The kind of document within a format (docs/import.md, section 2.2).
package enum ImportShape: String, Sendable {
    case transaction, transactions
    case renewalInfo = "renewal_info"
    case notification, statuses, history, subscriber, profile, entitlements, permissions
    case subscriptionPurchase = "subscription_purchase"
    case subscription, subscriptions, event

    /// The words the text summary uses.
    package var words: String {
        switch self {
        case .renewalInfo: return "renewal info"
        case .statuses: return "subscription statuses"
        case .history: return "transaction history"
        case .subscriptionPurchase: return "subscription purchase"
        default: return rawValue
        }
    }
}

/// Where the user id of a document came from.
package enum UserSource: String, Sendable {
    case option = "--user"
    case originalAppUserID = "original_app_user_id"
    case customerUserID = "customer_user_id"
    case appAccountToken
    /// Google Play `externalAccountIdentifiers.obfuscatedExternalAccountId`.
    case obfuscatedExternalAccountId
    /// Stripe `customer`, or the subscription's metadata key named in config.json.
    case stripeCustomer = "customer"
    case stripeMetadata = "metadata"
}

/// Where a document's time came from (section 5).
package enum TimeSource: String, Sendable {
    case signedDate, requestDate = "request_date", timestamp
    /// A Stripe event's `created`.
    case created
    case option = "--at"
    case now
}
