import FoundationEssentials
import EntitlementJSON

/// The stored fields of a `Transaction`, boxed so that copying a transaction is one
/// reference. Mutated only while uniquely referenced (`mutableFields`), so sharing it between
/// threads is safe.
///
/// The getters are `@inlinable` in other modules, where the compiler can no longer prove that
/// no access to a class property overlaps another and checks each one at run time
/// (`swift_beginAccess`: a seventh of `status --json`'s instructions after the module split).
/// `@exclusivity(unchecked)` drops that check: every access is a plain read, or a write
/// through `Transaction`'s setters to a box no other value holds, never an overlapping one.
@usableFromInline
final class TransactionFields: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var transactionID: String
    @exclusivity(unchecked) @usableFromInline var originalTransactionID: String
    @exclusivity(unchecked) @usableFromInline var productID: String? = nil
    @exclusivity(unchecked) @usableFromInline var store: Store
    @exclusivity(unchecked) @usableFromInline var type: TransactionType
    @exclusivity(unchecked) @usableFromInline var purchasedAt: Date
    @exclusivity(unchecked) @usableFromInline var startsAt: Date? = nil
    @exclusivity(unchecked) @usableFromInline var expiresAt: Date? = nil
    @exclusivity(unchecked) @usableFromInline var revokedAt: Date? = nil
    @exclusivity(unchecked) @usableFromInline var environment: Environment
    @exclusivity(unchecked) @usableFromInline var ownershipType: OwnershipType
    @exclusivity(unchecked) @usableFromInline var price: Double? = nil
    @exclusivity(unchecked) @usableFromInline var currency: String? = nil
    @exclusivity(unchecked) @usableFromInline var entitlement: String? = nil
    @exclusivity(unchecked) @usableFromInline var isUpgraded: Bool? = nil
    var holdsRestoredRevocations = false
    var rawStorage = RawObject()
    /// The fields most transactions leave out, in a box of their own made on the first
    /// one set: a third less memory per transaction (a profile can hold 10,000).
    private(set) var extras: Extras?

    /// The rarely set fields: who revoked or granted and why, an offer code, an idempotency key.
    final class Extras {
        var revocationReason: String?
        var revokedBy: String?
        var offerCode: String?
        var grantedAt: Date?
        var grantedBy: String?
        var reason: String?
        var idempotencyKey: String?

        init() {}

        func copy() -> Extras {
            let copy = Extras()
            copy.revocationReason = revocationReason
            copy.revokedBy = revokedBy
            copy.offerCode = offerCode
            copy.grantedAt = grantedAt
            copy.grantedBy = grantedBy
            copy.reason = reason
            copy.idempotencyKey = idempotencyKey
            return copy
        }
    }

    /// The extras to change: made when `value` is set and there are none yet; nil when a
    /// field is cleared that was never set (nothing to change).
    func extras<Value>(toSet value: Value?) -> Extras? {
        if extras == nil, value != nil { extras = Extras() }
        return extras
    }

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
        copy.price = price
        copy.currency = currency
        copy.entitlement = entitlement
        copy.isUpgraded = isUpgraded
        copy.rawStorage = rawStorage
        copy.holdsRestoredRevocations = holdsRestoredRevocations
        copy.extras = extras?.copy()
        return copy
    }
}
