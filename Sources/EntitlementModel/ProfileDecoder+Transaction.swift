import FoundationEssentials
import EntitlementJSON

extension ProfileDecoder {
    /// Slots of `Transaction.fieldTable`: the order of `Transaction.CodingKeys` (a test checks it).
    /// Computed and `@inlinable`: other modules (the check scanner) read them as constants;
    /// `static let`s were a lazy global's accessor each, per field of every transaction.
    @usableFromInline
    package enum TransactionSlot {
        @inlinable package static var transactionID: Int { 0 }
        @inlinable package static var originalTransactionID: Int { 1 }
        @inlinable package static var productID: Int { 2 }
        @inlinable package static var store: Int { 3 }
        @inlinable package static var type: Int { 4 }
        @inlinable package static var purchasedAt: Int { 5 }
        @inlinable package static var startsAt: Int { 6 }
        @inlinable package static var expiresAt: Int { 7 }
        @inlinable package static var revokedAt: Int { 8 }
        @inlinable package static var revocationReason: Int { 9 }
        @inlinable package static var revokedBy: Int { 10 }
        @inlinable package static var environment: Int { 11 }
        @inlinable package static var ownershipType: Int { 12 }
        @inlinable package static var offerCode: Int { 13 }
        @inlinable package static var price: Int { 14 }
        @inlinable package static var currency: Int { 15 }
        @inlinable package static var entitlement: Int { 16 }
        @inlinable package static var grantedAt: Int { 17 }
        @inlinable package static var grantedBy: Int { 18 }
        @inlinable package static var reason: Int { 19 }
        @inlinable package static var idempotencyKey: Int { 20 }
        @inlinable package static var isUpgraded: Int { 21 }
        @inlinable package static var vendor: Int { 22 }
    }

    /// Slots of `RenewalInfo.fieldTable`.
    /// Computed and `@inlinable`: other modules (the check scanner) read them as constants;
    /// `static let`s were a lazy global's accessor each, per field of every transaction.
    @usableFromInline
    package enum RenewalSlot {
        @inlinable package static var willRenew: Int { 0 }
        @inlinable package static var unsubscribedAt: Int { 1 }
        @inlinable package static var billingIssueDetectedAt: Int { 2 }
        @inlinable package static var gracePeriodExpiresAt: Int { 3 }
        @inlinable package static var isInBillingRetry: Int { 4 }
        @inlinable package static var isPaused: Int { 5 }
        @inlinable package static var pausedAt: Int { 6 }
        @inlinable package static var resumesAt: Int { 7 }
    }

    /// The transaction object at the cursor, with the checks of `Transaction(json:)`.
    mutating func readTransaction() throws(Unsupported) -> Transaction {
        typealias S = TransactionSlot
        guard cursor.peek() == UInt8(ascii: "{") else { throw Unsupported() }
        var restored = ScannedValue.absent
        let range = try transactionFields.read(&cursor) { (cursor: inout ByteCursor, key: Range<Int>) throws(Unsupported) in
            let value = try cursor.value()
            if cursor.equals(key, "restored_revocations") { restored = value }
        }
        let bytes = cursor.bytes
        if case .string(let id, true) = transactionFields.values[S.transactionID], case .string(let store, true) = transactionFields.values[S.store] {
            idRanges.append((store, id))
        } else {
            idRangesComplete = false
        }
        let transactionID = try transactionFields.identifier(S.transactionID, bytes)
        // A first purchase is its own original: the same bytes, the same string.
        let originalTransactionID: String
        if case .string(let original, _) = transactionFields.values[S.originalTransactionID],
           case .string(let id, _) = transactionFields.values[S.transactionID], ByteCursor.same(bytes, original, id) {
            originalTransactionID = transactionID
        } else {
            originalTransactionID = try transactionFields.repeatedString(S.originalTransactionID, bytes) ?? transactionID
        }
        guard let typeName = try transactionFields.repeatedString(S.type, bytes), !typeName.isEmpty else { throw Unsupported() }
        let type = TransactionType(rawValue: typeName)
        let productID = try transactionFields.repeatedString(S.productID, bytes)
        let entitlement = try transactionFields.repeatedString(S.entitlement, bytes)
        if type.is(.manualGrant) {
            if entitlement?.isEmpty ?? true { throw Unsupported() }
        } else if productID?.isEmpty ?? true {
            throw Unsupported()
        }
        let storeName = try transactionFields.repeatedString(S.store, bytes)
        if storeName == nil, !type.is(.manualGrant) { throw Unsupported() }
        guard let purchasedAt = try transactionFields.optionalDate(S.purchasedAt, bytes) else { throw Unsupported() }
        var transaction = Transaction(
            transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
            store: storeName.map(Store.init(rawValue:)) ?? .manual, type: type, purchasedAt: purchasedAt,
            startsAt: try transactionFields.optionalDate(S.startsAt, bytes), expiresAt: try transactionFields.optionalDate(S.expiresAt, bytes),
            environment: Environment(rawValue: try transactionFields.repeatedString(S.environment, bytes) ?? Environment.production.rawValue),
            ownershipType: OwnershipType(rawValue: try transactionFields.repeatedString(S.ownershipType, bytes) ?? OwnershipType.owner.rawValue))
        transaction.entitlement = entitlement
        transaction.revokedAt = try transactionFields.optionalDate(S.revokedAt, bytes)
        transaction.revocationReason = try transactionFields.optionalString(S.revocationReason, bytes)
        transaction.revokedBy = try transactionFields.repeatedString(S.revokedBy, bytes)
        transaction.offerCode = try transactionFields.optionalString(S.offerCode, bytes)
        transaction.price = try transactionFields.optionalNumber(S.price, bytes)
        transaction.currency = try transactionFields.repeatedString(S.currency, bytes)
        transaction.grantedAt = try transactionFields.optionalDate(S.grantedAt, bytes)
        transaction.grantedBy = try transactionFields.repeatedString(S.grantedBy, bytes)
        transaction.reason = try transactionFields.optionalString(S.reason, bytes)
        transaction.idempotencyKey = try transactionFields.optionalString(S.idempotencyKey, bytes)
        transaction.isUpgraded = try transactionFields.optionalBool(S.isUpgraded)
        _ = try transactionFields.optionalObject(S.vendor)
        if !restored.isNullOrAbsent { try checkRestoredRevocations(restored) }
        transaction.rawStorage = RawObject(bytes: source, range: range)
        transaction.holdsRestoredRevocations = !(restored.isAbsent)
        return transaction
    }

    /// `restored_revocations`, rare, is checked through the tree, as `Transaction(json:)` does.
    private func checkRestoredRevocations(_ value: ScannedValue) throws(Unsupported) {
        guard case .array(let range) = value,
              let items = try? JSONParser.parse(UnsafeBufferPointer(rebasing: cursor.bytes[range])),
              (try? Transaction.checkRestoredRevocations(FieldReader(JSONObject([(Transaction.restoredRevocationsKey, items)])))) != nil
        else { throw Unsupported() }
    }

    /// The renewal info object at the cursor, with the checks of `RenewalInfo(json:)`.
    mutating func readRenewal() throws(Unsupported) -> RenewalInfo {
        typealias S = RenewalSlot
        guard cursor.peek() == UInt8(ascii: "{") else { throw Unsupported() }
        let range = try renewalFields.read(&cursor) { (cursor: inout ByteCursor, _: Range<Int>) throws(Unsupported) in _ = try cursor.value() }
        let bytes = cursor.bytes
        var info = RenewalInfo(
            willRenew: try renewalFields.optionalBool(S.willRenew), unsubscribedAt: try renewalFields.optionalDate(S.unsubscribedAt, bytes),
            billingIssueDetectedAt: try renewalFields.optionalDate(S.billingIssueDetectedAt, bytes),
            gracePeriodExpiresAt: try renewalFields.optionalDate(S.gracePeriodExpiresAt, bytes),
            isInBillingRetry: try renewalFields.optionalBool(S.isInBillingRetry), isPaused: try renewalFields.optionalBool(S.isPaused),
            pausedAt: try renewalFields.optionalDate(S.pausedAt, bytes), resumesAt: try renewalFields.optionalDate(S.resumesAt, bytes))
        info.rawStorage = RawObject(bytes: source, range: range)
        return info
    }
}
