import FoundationEssentials

/// One vendor document in our terms: what to write, what the vendor claims, and what was odd.
///
/// Built by the pure mappers; the command merges it into a profile and reconciles it.
struct ImportDocument: Sendable {
    var format: ImportFormat
    var shape: ImportShape
    /// Extra words for the summary header, e.g. a notification's `DID_RENEW/GRACE_PERIOD`.
    var detail: String?
    /// The user the document names (section 4), if any.
    var user: String?
    var userSource: UserSource?
    /// Every distinct App Store `appAccountToken` in the document, in order.
    var appAccountTokens: [String] = []
    /// The document's own time and where it came from (section 5).
    var time: Date?
    var timeSource: TimeSource?
    var transactions: [MappedTransaction] = []
    var renewals: [MappedRenewal] = []
    /// (entitlement, product) pairs the document states (section 7.5).
    var productMappings: [ProductMapping] = []
    /// Adapty `custom_attributes`, in document order, null values left out.
    var customAttributes: [(key: String, value: JSONValue)] = []
    /// Stripe's subscription `metadata`, where config.json may name the customer id's key.
    var stripeMetadata: JSONObject?
    /// Adapty's `profile_id`.
    var vendorProfileID: String?
    /// RevenueCat `first_seen`: `created_at` of a new profile.
    var firstSeen: Date?
    var statements: [VendorStatement] = []
    /// Messages for stderr, without the `warning: FILE: ` prefix.
    var warnings: [String] = []
    /// Items left out, one line each, for the summary.
    var skipped: [String] = []
    /// How many JWS strings were decoded.
    var jwsDecoded = 0

    init(format: ImportFormat, shape: ImportShape) {
        self.format = format
        self.shape = shape
    }

    /// True when there is something to write into a profile (a user is needed).
    var hasProfileData: Bool { !transactions.isEmpty || !renewals.isEmpty || !customAttributes.isEmpty }

    /// Adds a token once, keeping document order.
    mutating func noteToken(_ token: String?) {
        guard let token, !token.isEmpty, !appAccountTokens.contains(token) else { return }
        appAccountTokens.append(token)
    }

    /// Keeps the latest of the dates seen as the document time.
    mutating func noteSignedDate(_ date: Date?) {
        guard let date else { return }
        if time.map({ date > $0 }) ?? true { time = date }
        timeSource = .signedDate
    }

    /// Records that `product` unlocks `entitlement`, once.
    mutating func noteMapping(_ entitlement: String, _ product: String) {
        let mapping = ProductMapping(entitlement: entitlement, productID: product)
        if !productMappings.contains(mapping) { productMappings.append(mapping) }
    }
}

/// A product that unlocks an entitlement, as a document states it.
struct ProductMapping: Equatable, Sendable {
    var entitlement: String
    var productID: String
}

/// A transaction mapped from vendor data, with what the merge needs to know about it.
struct MappedTransaction: Sendable {
    /// The transaction as mapped; `raw` is empty.
    var transaction: Transaction
    /// The value for `vendor.<format>` (section 7.3).
    var vendor: JSONValue
    /// Whether the vendor stated `environment` and `ownership_type` (else the stored values stay).
    var givesEnvironment = false
    var givesOwnership = false
    /// True when `original_transaction_id` was made up from dates (section 7.1).
    var originalIsSynthesized = false
    /// The document says the period has ended but not when (Google Play `IN_GRACE_PERIOD`):
    /// `expires_at` becomes the document time (`ImportDocument.settled(at:configuration:)`).
    var endsAtDocumentTime = false
    /// Other ids of the product (Stripe `price.id` beside `price.product`): the first that
    /// config.json maps replaces `product_id` when `product_id` itself is not mapped.
    var alternativeProductIDs: [String] = []

    init(_ transaction: Transaction, vendor: JSONValue) {
        self.transaction = transaction
        self.vendor = vendor
    }

    /// The key a transaction is matched by: store and transaction id.
    var key: TransactionKey { TransactionKey(store: transaction.store.rawValue, transactionID: transaction.transactionID) }
}

/// (store, transaction_id): how import matches transactions.
struct TransactionKey: Hashable, Sendable {
    var store: String
    var transactionID: String
}

/// A renewal-info field a vendor may or may not express.
enum Expressed<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The vendor says nothing: the stored value stays.
    case keep
    /// The vendor states this value (nil: cleared).
    case set(Value?)
}

/// Renewal info mapped from vendor data; only expressed fields are written.
struct MappedRenewal: Sendable {
    var originalTransactionID: String
    var willRenew: Expressed<Bool> = .keep
    var unsubscribedAt: Expressed<Date> = .keep
    var billingIssueDetectedAt: Expressed<Date> = .keep
    var gracePeriodExpiresAt: Expressed<Date> = .keep
    var isInBillingRetry: Expressed<Bool> = .keep
    var isPaused: Expressed<Bool> = .keep
    var pausedAt: Expressed<Date> = .keep
    var resumesAt: Expressed<Date> = .keep
    /// `billing_issue_detected_at` is the document time (the vendor does not date the failure).
    var billingIssueAtDocumentTime = false
    /// The value for `vendor.<format>` of the renewal info (App Store, Google Play, Stripe).
    var vendor: JSONValue?

    init(originalTransactionID: String) { self.originalTransactionID = originalTransactionID }

    /// True when nothing at all is expressed.
    var isEmpty: Bool {
        willRenew == .keep && unsubscribedAt == .keep && billingIssueDetectedAt == .keep
            && gracePeriodExpiresAt == .keep && isInBillingRetry == .keep && isPaused == .keep && pausedAt == .keep
            && resumesAt == .keep && vendor == nil
    }
}

/// A vendor's own verdict about access, to compare with ours (section 10).
struct VendorStatement: Sendable {
    enum Subject: Equatable, Sendable {
        /// RevenueCat, Adapty, Qonversion: about an entitlement.
        case entitlement(String)
        /// App Store: about a subscription, by `originalTransactionId` (nil when unknown).
        case subscription(String?)
    }

    var subject: Subject
    /// The vendor's state in its own words: `active`, `inactive`, `expired`, ….
    var vendorState: String
    /// Our states that agree with it.
    var accepted: [AccessState]
    /// What the vendor said, for the summary: `expires_date 2026-04-01T09:00:00Z`.
    var evidence: String
    /// Set when the statement cannot be compared whatever the data (an unknown status code).
    var notComparable: String?
}
