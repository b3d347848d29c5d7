import FoundationEssentials

/// The stored fields of a `Transaction`, boxed so that copying a transaction is one
/// reference. Mutated only while uniquely referenced (`mutableFields`), so sharing it between
/// threads is safe.
final class TransactionFields: @unchecked Sendable {
    var transactionID: String
    var originalTransactionID: String
    var productID: String? = nil
    var store: Store
    var type: TransactionType
    var purchasedAt: Date
    var startsAt: Date? = nil
    var expiresAt: Date? = nil
    var revokedAt: Date? = nil
    var revocationReason: String? = nil
    var revokedBy: String? = nil
    var environment: Environment
    var ownershipType: OwnershipType
    var offerCode: String? = nil
    var price: Double? = nil
    var currency: String? = nil
    var entitlement: String? = nil
    var grantedAt: Date? = nil
    var grantedBy: String? = nil
    var reason: String? = nil
    var idempotencyKey: String? = nil
    var isUpgraded: Bool? = nil
    var rawStorage = RawObject()
    var holdsRestoredRevocations = false

    init(transactionID: String, originalTransactionID: String, productID: String?, store: Store, type: TransactionType,
         purchasedAt: Date, environment: Environment, ownershipType: OwnershipType) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.store = store
        self.type = type
        self.purchasedAt = purchasedAt
        self.environment = environment
        self.ownershipType = ownershipType
    }

    func copy() -> TransactionFields {
        let copy = TransactionFields(transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID, store: store,
                          type: type, purchasedAt: purchasedAt, environment: environment, ownershipType: ownershipType)
        copy.productID = productID
        copy.startsAt = startsAt
        copy.expiresAt = expiresAt
        copy.revokedAt = revokedAt
        copy.revocationReason = revocationReason
        copy.revokedBy = revokedBy
        copy.offerCode = offerCode
        copy.price = price
        copy.currency = currency
        copy.entitlement = entitlement
        copy.grantedAt = grantedAt
        copy.grantedBy = grantedBy
        copy.reason = reason
        copy.idempotencyKey = idempotencyKey
        copy.isUpgraded = isUpgraded
        copy.rawStorage = rawStorage
        copy.holdsRestoredRevocations = holdsRestoredRevocations
        return copy
    }
}
