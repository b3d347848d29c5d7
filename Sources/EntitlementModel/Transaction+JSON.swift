import FoundationEssentials
import EntitlementJSON

extension Transaction {
    /// Reads a transaction from its stored object.
    package init(json reader: FieldReader) throws(FieldError) {
        // One pass over the object finds every field (a profile can hold 10,000 transactions).
        try self.init(json: FieldReader(reader.object, path: reader.path, fields: Self.fieldTable), oneFieldAtATime: ())
    }

    /// Reads the fields in order through `reader`, whichever way it finds them (tests
    /// compare the one-pass reader with plain lookups through this).
    init(json reader: FieldReader, oneFieldAtATime: Void) throws(FieldError) {
        typealias K = CodingKeys
        let transactionID = try reader.identifier(K.transactionID.rawValue)
        let originalTransactionID = try reader.optionalString(K.originalTransactionID.rawValue) ?? transactionID
        let type = TransactionType(rawValue: try reader.identifier(K.type.rawValue))
        let productID = try reader.optionalString(K.productID.rawValue)
        let entitlement = try reader.optionalString(K.entitlement.rawValue)
        if type == .manualGrant {
            if entitlement?.isEmpty ?? true {
                throw FieldError(path: reader.childPath(K.entitlement.rawValue), message: "a manual_grant needs the entitlement it grants")
            }
        } else if productID?.isEmpty ?? true {
            throw FieldError(path: reader.childPath(K.productID.rawValue), message: "required field is missing")
        }
        let storeName = try reader.optionalString(K.store.rawValue)
        if storeName == nil, type != .manualGrant { throw FieldError(path: reader.childPath(K.store.rawValue), message: "required field is missing") }
        let purchasedAt = try reader.date(K.purchasedAt.rawValue)
        let startsAt = try reader.optionalDate(K.startsAt.rawValue)
        let expiresAt = try reader.optionalDate(K.expiresAt.rawValue)
        self.init(transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
                  store: Store(rawValue: storeName ?? Store.manual.rawValue), type: type, purchasedAt: purchasedAt, startsAt: startsAt,
                  expiresAt: expiresAt)
        self.entitlement = entitlement
        revokedAt = try reader.optionalDate(K.revokedAt.rawValue)
        revocationReason = try reader.optionalString(K.revocationReason.rawValue)
        revokedBy = try reader.optionalString(K.revokedBy.rawValue)
        environment = Environment(rawValue: try reader.optionalString(K.environment.rawValue) ?? Environment.production.rawValue)
        ownershipType = OwnershipType(rawValue: try reader.optionalString(K.ownershipType.rawValue) ?? OwnershipType.owner.rawValue)
        offerCode = try reader.optionalString(K.offerCode.rawValue)
        price = try reader.optionalNumber(K.price.rawValue)
        currency = try reader.optionalString(K.currency.rawValue)
        grantedAt = try reader.optionalDate(K.grantedAt.rawValue)
        grantedBy = try reader.optionalString(K.grantedBy.rawValue)
        reason = try reader.optionalString(K.reason.rawValue)
        idempotencyKey = try reader.optionalString(K.idempotencyKey.rawValue)
        isUpgraded = try reader.optionalBool(K.isUpgraded.rawValue)
        _ = try reader.optionalObject(K.vendor.rawValue)
        try Self.checkRestoredRevocations(reader)
        rawStorage = RawObject(reader.object)
        holdsRestoredRevocations = reader.object[Self.restoredRevocationsKey] != nil
    }

    /// The keys `init(json:)` reads.
    package static let fieldTable = FieldTable(CodingKeys.allCases.map { $0.rawValue })

    /// The object to store: the raw object with the known fields written over it,
    /// so unknown fields and the file's own spelling of unchanged values survive.
    package var json: JSONValue {
        typealias K = CodingKeys
        var object = raw
        object[K.transactionID.rawValue] = .string(transactionID)
        if object[K.originalTransactionID.rawValue] != nil || originalTransactionID != transactionID {
            object[K.originalTransactionID.rawValue] = .string(originalTransactionID)
        }
        object.mergeString(K.productID.rawValue, productID)
        object[K.store.rawValue] = .string(store.rawValue)
        object[K.type.rawValue] = .string(type.rawValue)
        object.mergeDate(K.purchasedAt.rawValue, purchasedAt)
        object.mergeDate(K.startsAt.rawValue, startsAt)
        if let expiresAt {
            object.mergeDate(K.expiresAt.rawValue, expiresAt)
        } else if object[K.expiresAt.rawValue] != nil {
            object[K.expiresAt.rawValue] = .null  // an explicit "never expires" stays explicit
        }
        object.mergeDate(K.revokedAt.rawValue, revokedAt)
        object.mergeString(K.revocationReason.rawValue, revocationReason)
        object.mergeString(K.revokedBy.rawValue, revokedBy)
        if object[K.environment.rawValue] != nil || environment != .production {
            object[K.environment.rawValue] = .string(environment.rawValue)
        }
        if object[K.ownershipType.rawValue] != nil || ownershipType != .owner {
            object[K.ownershipType.rawValue] = .string(ownershipType.rawValue)
        }
        object.mergeString(K.offerCode.rawValue, offerCode)
        object.mergeNumber(K.price.rawValue, price)
        object.mergeString(K.currency.rawValue, currency)
        object.mergeString(K.entitlement.rawValue, entitlement)
        object.mergeDate(K.grantedAt.rawValue, grantedAt)
        object.mergeString(K.grantedBy.rawValue, grantedBy)
        object.mergeString(K.reason.rawValue, reason)
        object.mergeString(K.idempotencyKey.rawValue, idempotencyKey)
        object.merge(K.isUpgraded.rawValue, isUpgraded.map(JSONValue.bool))
        return .object(object)
    }
}
