import FoundationEssentials

/// One purchase, renewal or manual grant in a profile. Never deleted: a refund
/// or a support revocation sets `revokedAt`.
public struct Transaction: Equatable, Sendable {
    public var transactionID: String
    /// The first transaction of a subscription; keys the profile's renewal info.
    public var originalTransactionID: String
    /// The store product; nil only for manual grants.
    public var productID: String?
    public var store: Store
    public var type: TransactionType
    public var purchasedAt: Date
    /// When access starts, if later than `purchasedAt`.
    public var startsAt: Date?
    /// Nil means the transaction never expires.
    public var expiresAt: Date?
    public var revokedAt: Date?
    public var revocationReason: String?
    public var revokedBy: String?
    public var environment: Environment
    public var ownershipType: OwnershipType
    public var offerCode: String?
    public var price: Double?
    public var currency: String?
    /// The entitlement a manual grant gives.
    public var entitlement: String?
    public var grantedAt: Date?
    public var grantedBy: String?
    public var reason: String?
    public var idempotencyKey: String?
    /// The object as read, with fields this version does not know (and `vendor` data).
    public var raw: JSONObject

    public enum CodingKeys: String, CaseIterable {
        case transactionID = "transaction_id"
        case originalTransactionID = "original_transaction_id"
        case productID = "product_id"
        case store
        case type
        case purchasedAt = "purchased_at"
        case startsAt = "starts_at"
        case expiresAt = "expires_at"
        case revokedAt = "revoked_at"
        case revocationReason = "revocation_reason"
        case revokedBy = "revoked_by"
        case environment
        case ownershipType = "ownership_type"
        case offerCode = "offer_code"
        case price
        case currency
        case entitlement
        case grantedAt = "granted_at"
        case grantedBy = "granted_by"
        case reason
        case idempotencyKey = "idempotency_key"
        case vendor
    }

    public init(
        transactionID: String, originalTransactionID: String? = nil, productID: String?, store: Store,
        type: TransactionType, purchasedAt: Date, startsAt: Date? = nil, expiresAt: Date?,
        environment: Environment = .production, ownershipType: OwnershipType = .owner
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.productID = productID
        self.store = store
        self.type = type
        self.purchasedAt = purchasedAt
        self.startsAt = startsAt
        self.expiresAt = expiresAt
        self.environment = environment
        self.ownershipType = ownershipType
        self.raw = JSONObject()
    }

    /// When access starts: `startsAt`, else `purchasedAt`.
    public var effectiveStart: Date { startsAt ?? purchasedAt }

    public var isManualGrant: Bool { type == .manualGrant }

    /// True when the transaction was revoked at or before `date`.
    public func isRevoked(at date: Date) -> Bool {
        guard let revokedAt else { return false }
        return revokedAt <= date
    }
}
