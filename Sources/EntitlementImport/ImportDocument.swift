import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// One vendor document in our terms: what to write, what the vendor claims, and what was odd.
///
/// Built by the pure mappers; the command merges it into a profile and reconciles it.
package struct ImportDocument: Sendable {
    package var format: Vendor
    package var shape: ImportShape
    /// Extra words for the summary header, e.g. a notification's `DID_RENEW/GRACE_PERIOD`.
    package var detail: String?
    /// The user the document names (section 4), if any.
    package var user: String?
    package var userSource: UserSource?
    /// Every distinct App Store `appAccountToken` in the document, in order.
    package var appAccountTokens: [String] = []
    /// The document's own time and where it came from (section 5).
    package var time: Date?
    package var timeSource: TimeSource?
    package var transactions: [MappedTransaction] = []
    package var renewals: [MappedRenewal] = []
    /// (entitlement, product) pairs the document states (section 7.5).
    /// Stripe's subscription `metadata`, where config.json may name the customer id's key.
    var stripeMetadata: JSONObject?
    package var productMappings: [ProductMapping] = []
    /// `productMappings` as a set: a document of 8,000 entitlements checked each against all.
    private var mappingSet: Set<ProductMapping> = []
    /// Adapty `custom_attributes`, in document order, null values left out.
    package var customAttributes: [(key: String, value: JSONValue)] = []
    /// Adapty's `profile_id`.
    package var vendorProfileID: String?
    /// RevenueCat `first_seen`: `created_at` of a new profile.
    var firstSeen: Date?
    var statements: [VendorStatement] = []
    /// Messages for stderr, without the `warning: FILE: ` prefix.
    package var warnings: [String] = []
    /// Items left out, one line each, for the summary.
    package var skipped: [String] = []
    /// A document that holds several customers' data (a Stripe list of many customers'
    /// subscriptions): one document per customer, each imported on its own; empty otherwise.
    package var parts: [ImportDocument] = []
    /// How many JWS strings were decoded.
    package var jwsDecoded = 0
    /// How many of them passed verification (docs/security.md).
    package var jwsVerified = 0

    package init(format: Vendor, shape: ImportShape) {
        self.format = format
        self.shape = shape
    }

    /// True when there is something to write into a profile (a user is needed).
    package var hasProfileData: Bool { !transactions.isEmpty || !renewals.isEmpty || !customAttributes.isEmpty }

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

    /// Counts one decoded JWS.
    mutating func noteJWS(_ signature: JWSReader.Signature) {
        jwsDecoded += 1
        if signature == .verified { jwsVerified += 1 }
    }

    /// Records on the transactions mapped since `start` that came from a JWS with this
    /// signature state, unless a JWS of their own already did (`vendor.app_store.signature`).
    mutating func markSignature(_ signature: JWSReader.Signature, from start: Int) {
        for index in transactions.indices where index >= start {
            guard case .object(var vendor) = transactions[index].vendor, vendor[MappedTransaction.signatureKey] == nil else { continue }
            vendor[MappedTransaction.signatureKey] = .string(signature.rawValue)
            transactions[index].vendor = .object(vendor)
        }
    }

    /// Records that `product` unlocks `entitlement`, once.
    package mutating func noteMapping(_ entitlement: String, _ product: String) {
        let mapping = ProductMapping(entitlement: entitlement, productID: product)
        if mappingSet.insert(mapping).inserted { productMappings.append(mapping) }
    }
}

/// A product that unlocks an entitlement, as a document states it.
package struct ProductMapping: Hashable, Sendable {
    var entitlement: String
    var productID: String
}

/// A transaction mapped from vendor data, with what the merge needs to know about it.
package struct MappedTransaction: Sendable {
    /// The key in the vendor object that says whether the JWS it came from was verified.
    static let signatureKey = SignedDataState.vendorKey

    /// The transaction as mapped; `raw` is empty.
    package var transaction: Transaction
    /// The value for `vendor.<format>` (section 7.3).
    package var vendor: JSONValue
    /// Whether the vendor stated `environment` and `ownership_type` (else the stored values stay).
    package var givesEnvironment = false
    package var givesOwnership = false
    /// True when `original_transaction_id` was made up from dates (section 7.1).
    var originalIsSynthesized = false
    /// The document says the period has ended but not when (Google Play `IN_GRACE_PERIOD`):
    /// `expires_at` becomes the document time (`ImportDocument.settled(at:configuration:)`).
    var endsAtDocumentTime = false
    /// Other ids of the product (Stripe `price.id` beside `price.product`): the first that
    /// config.json maps replaces `product_id` when `product_id` itself is not mapped.
    var alternativeProductIDs: [String] = []

    package init(_ transaction: Transaction, vendor: JSONValue) {
        self.transaction = transaction
        self.vendor = vendor
    }

    /// The key a transaction is matched by: store and transaction id.
    package var key: TransactionKey { TransactionKey(store: transaction.store.rawValue, transactionID: transaction.transactionID) }
}

/// (store, transaction_id): how import matches transactions.
package struct TransactionKey: Hashable, Sendable {
    package var store: String
    package var transactionID: String
}

/// A renewal-info field a vendor may or may not express.
package enum Expressed<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The vendor says nothing: the stored value stays.
    case keep
    /// The vendor states this value (nil: cleared).
    case set(Value?)
}

/// Renewal info mapped from vendor data; only expressed fields are written.
package struct MappedRenewal: Sendable {
    package var originalTransactionID: String
    package var willRenew: Expressed<Bool> = .keep
    package var unsubscribedAt: Expressed<Date> = .keep
    package var billingIssueDetectedAt: Expressed<Date> = .keep
    package var gracePeriodExpiresAt: Expressed<Date> = .keep
    package var isInBillingRetry: Expressed<Bool> = .keep
    package var isPaused: Expressed<Bool> = .keep
    package var pausedAt: Expressed<Date> = .keep
    var resumesAt: Expressed<Date> = .keep
    /// `billing_issue_detected_at` is the document time (the vendor does not date the failure).
    var billingIssueAtDocumentTime = false
    /// The value for `vendor.<format>` of the renewal info (App Store, Google Play, Stripe).
    package var vendor: JSONValue?

    package init(originalTransactionID: String) { self.originalTransactionID = originalTransactionID }

    /// True when nothing at all is expressed.
    package var isEmpty: Bool {
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
