import FoundationEssentials
import EntitlementJSON

/// One purchase, renewal or manual grant in a profile. Never deleted: a refund
/// or a support revocation sets `revokedAt`.
@usableFromInline
package struct Transaction: Equatable, Sendable {
    /// The fields, in one shared box: a profile can hold 10,000 transactions, and the
    /// engine filters, sorts and pairs them; a copy of the value is then one reference,
    /// not twenty (the box is copied on the first change of a shared one).
    @usableFromInline var fields: TransactionFields

    @usableFromInline package var transactionID: String { @inlinable get { fields.transactionID } set { mutableFields().transactionID = newValue } }
    /// The first transaction of a subscription; keys the profile's renewal info.
    @usableFromInline package var originalTransactionID: String { @inlinable get { fields.originalTransactionID } set { mutableFields().originalTransactionID = newValue } }
    /// The store product; nil only for manual grants.
    @usableFromInline package var productID: String? { @inlinable get { fields.productID } set { mutableFields().productID = newValue } }
    @usableFromInline package var store: Store { @inlinable get { fields.store } set { mutableFields().store = newValue } }
    @usableFromInline package var type: TransactionType { @inlinable get { fields.type } set { mutableFields().type = newValue } }
    @usableFromInline package var purchasedAt: Date { @inlinable get { fields.purchasedAt } set { mutableFields().purchasedAt = newValue } }
    /// When access starts, if later than `purchasedAt`.
    @usableFromInline package var startsAt: Date? { @inlinable get { fields.startsAt } set { mutableFields().startsAt = newValue } }
    /// Nil means the transaction never expires.
    @usableFromInline package var expiresAt: Date? { @inlinable get { fields.expiresAt } set { mutableFields().expiresAt = newValue } }
    @usableFromInline package var revokedAt: Date? { @inlinable get { fields.revokedAt } set { mutableFields().revokedAt = newValue } }
    package var revocationReason: String? { get { fields.extras?.revocationReason } set { mutableFields().extras(toSet: newValue)?.revocationReason = newValue } }
    package var revokedBy: String? { get { fields.extras?.revokedBy } set { mutableFields().extras(toSet: newValue)?.revokedBy = newValue } }
    @usableFromInline package var environment: Environment { @inlinable get { fields.environment } set { mutableFields().environment = newValue } }
    @usableFromInline package var ownershipType: OwnershipType { @inlinable get { fields.ownershipType } set { mutableFields().ownershipType = newValue } }
    package var offerCode: String? { get { fields.extras?.offerCode } set { mutableFields().extras(toSet: newValue)?.offerCode = newValue } }
    @usableFromInline package var price: Double? { @inlinable get { fields.price } set { mutableFields().price = newValue } }
    @usableFromInline package var currency: String? { @inlinable get { fields.currency } set { mutableFields().currency = newValue } }
    /// The entitlement a manual grant gives.
    @usableFromInline package var entitlement: String? { @inlinable get { fields.entitlement } set { mutableFields().entitlement = newValue } }
    package var grantedAt: Date? { get { fields.extras?.grantedAt } set { mutableFields().extras(toSet: newValue)?.grantedAt = newValue } }
    package var grantedBy: String? { get { fields.extras?.grantedBy } set { mutableFields().extras(toSet: newValue)?.grantedBy = newValue } }
    package var reason: String? { get { fields.extras?.reason } set { mutableFields().extras(toSet: newValue)?.reason = newValue } }
    package var idempotencyKey: String? { get { fields.extras?.idempotencyKey } set { mutableFields().extras(toSet: newValue)?.idempotencyKey = newValue } }
    /// The vendor said another transaction of the same subscription replaced this one
    /// (App Store `isUpgraded`); docs/status-rules.md, "Superseded periods".
    @usableFromInline package var isUpgraded: Bool? { @inlinable get { fields.isUpgraded } set { mutableFields().isUpgraded = newValue } }
    /// The object as read, with fields this version does not know (and `vendor` data).
    package var raw: JSONObject {
        get { fields.rawStorage.object }
        set {
            let fields = mutableFields()
            fields.rawStorage = RawObject(newValue)
            fields.holdsRestoredRevocations = newValue[Self.restoredRevocationsKey] != nil
        }
    }
    /// One member of `raw`, without parsing the others (`RawObject.member`).
    package func rawMember(_ key: String) -> JSONValue? { fields.rawStorage.member(key) }
    /// `raw`, parsed only when asked for (see `RawObject`).
    var rawStorage: RawObject {
        get { fields.rawStorage }
        set { mutableFields().rawStorage = newValue }
    }
    /// Whether `raw` has a `restored_revocations` key (known without parsing `raw`).
    package var holdsRestoredRevocations: Bool {
        get { fields.holdsRestoredRevocations }
        set { mutableFields().holdsRestoredRevocations = newValue }
    }

    /// The box, copied first if another value shares it.
    private mutating func mutableFields() -> TransactionFields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }


    package enum CodingKeys: String, CaseIterable {
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

    package init(
        transactionID: String, originalTransactionID: String? = nil, productID: String?, store: Store,
        type: TransactionType, purchasedAt: Date, startsAt: Date? = nil, expiresAt: Date?,
        environment: Environment = .production, ownershipType: OwnershipType = .owner
    ) {
        fields = TransactionFields(transactionID: transactionID, originalTransactionID: originalTransactionID ?? transactionID, productID: productID,
                        store: store, type: type, purchasedAt: purchasedAt, environment: environment, ownershipType: ownershipType)
        fields.startsAt = startsAt
        fields.expiresAt = expiresAt
    }

    /// When access starts: `startsAt`, else `purchasedAt`.
    @inlinable package var effectiveStart: Date { startsAt ?? purchasedAt }

    @inlinable package var isManualGrant: Bool { type.is(.manualGrant) }

    /// Fields this version does not know, and the `vendor` data, as read: compared as a value.
    var unknownFields: JSONObject {
        JSONObject(raw.entries.filter { !Self.modelKeys.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// The keys that have a property; `vendor` has none and lives in `raw`.
    static let modelKeys = Set(CodingKeys.allCases.filter { $0 != .vendor }.map(\.rawValue))

    /// Field by field; unknown fields compare as a value, so a date spelled two ways
    /// (`.000Z` and `Z`) is the same transaction.
    @usableFromInline
    package static func == (lhs: Transaction, rhs: Transaction) -> Bool {
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
    @inlinable
    package func isRevoked(at date: Date) -> Bool {
        guard let revokedAt else { return false }
        return revokedAt <= date
    }
}
