import EntitlementModel

/// The vendor a document comes from: the values of `import --format`.
package enum ImportFormat: String, CaseIterable, Sendable {
    case appstore, revenuecat, adapty, qonversion

    /// The vendor's name as people write it.
    package var displayName: String {
        switch self {
        case .appstore: return "App Store"
        case .revenuecat: return "RevenueCat"
        case .adapty: return "Adapty"
        case .qonversion: return "Qonversion"
        }
    }

    /// What `--format F` expects, for the "not a F document" error.
    var expectation: String {
        switch self {
        case .appstore: return "expected an App Store transaction, renewal info, notification, statuses or history document"
        case .revenuecat: return "expected an object with \"subscriber\""
        case .adapty: return "expected an object with \"profile_id\" or \"paid_access_levels\""
        case .qonversion: return "expected an array of entitlements or an object with \"permissions\""
        }
    }
}

/// The kind of document within a format (docs/import.md, section 2.2).
package enum ImportShape: String, Sendable {
    case transaction, transactions
    case renewalInfo = "renewal_info"
    case notification, statuses, history, subscriber, profile, entitlements, permissions

    /// The words the text summary uses.
    package var words: String {
        switch self {
        case .renewalInfo: return "renewal info"
        case .statuses: return "subscription statuses"
        case .history: return "transaction history"
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
}

/// Where a document's time came from (section 5).
package enum TimeSource: String, Sendable {
    case signedDate, requestDate = "request_date", timestamp
    case option = "--at"
    case now
}
