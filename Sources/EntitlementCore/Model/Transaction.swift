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
    /// The vendor said another transaction of the same subscription replaced this one
    /// (App Store `isUpgraded`); docs/status-rules.md, "Superseded periods".
    public var isUpgraded: Bool?
    /// The object as read, with fields this version does not know (and `vendor` data).
    public var raw: JSONObject {
        get { rawStorage.object }
        set {
            rawStorage = RawObject(newValue)
            holdsRestoredRevocations = newValue[Self.restoredRevocationsKey] != nil
        }
    }
    /// `raw`, parsed only when asked for (see `RawObject`).
    var rawStorage: RawObject
    /// Whether `raw` has a `restored_revocations` key (known without parsing `raw`).
    var holdsRestoredRevocations: Bool

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
        case isUpgraded = "is_upgraded"
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
        self.rawStorage = RawObject()
        self.holdsRestoredRevocations = false
    }

    /// When access starts: `startsAt`, else `purchasedAt`.
    public var effectiveStart: Date { startsAt ?? purchasedAt }

    public var isManualGrant: Bool { type == .manualGrant }

    /// Fields this version does not know, and the `vendor` data, as read: compared as a value.
    public var unknownFields: JSONObject {
        JSONObject(raw.entries.filter { !Self.modelKeys.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// The keys that have a property; `vendor` has none and lives in `raw`.
    static let modelKeys = Set(CodingKeys.allCases.filter { $0 != .vendor }.map(\.rawValue))

    /// Field by field; unknown fields compare as a value, so a date spelled two ways
    /// (`.000Z` and `Z`) is the same transaction.
    public static func == (lhs: Transaction, rhs: Transaction) -> Bool {
        lhs.transactionID == rhs.transactionID && lhs.originalTransactionID == rhs.originalTransactionID
            && lhs.productID == rhs.productID && lhs.store == rhs.store && lhs.type == rhs.type
            && lhs.purchasedAt == rhs.purchasedAt && lhs.startsAt == rhs.startsAt && lhs.expiresAt == rhs.expiresAt
            && lhs.revokedAt == rhs.revokedAt && lhs.revocationReason == rhs.revocationReason && lhs.revokedBy == rhs.revokedBy
            && lhs.environment == rhs.environment && lhs.ownershipType == rhs.ownershipType && lhs.offerCode == rhs.offerCode
            && lhs.price == rhs.price && lhs.currency == rhs.currency && lhs.entitlement == rhs.entitlement
            && lhs.grantedAt == rhs.grantedAt && lhs.grantedBy == rhs.grantedBy && lhs.reason == rhs.reason
            && lhs.idempotencyKey == rhs.idempotencyKey && lhs.isUpgraded == rhs.isUpgraded && lhs.unknownFields == rhs.unknownFields
    }

    /// True when the transaction was revoked at or before `date`.
    public func isRevoked(at date: Date) -> Bool {
        guard let revokedAt else { return false }
        return revokedAt <= date
    }
}
