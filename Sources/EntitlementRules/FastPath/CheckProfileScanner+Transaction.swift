import FoundationEssentials
import Glibc
import EntitlementJSON
import EntitlementModel

extension CheckProfileScanner {
    /// The transaction object at the cursor, with every check of `ProfileDecoder.readTransaction`.
    mutating func readTransaction(_ cursor: inout ByteCursor) throws(Unsupported) -> CheckTransaction {
        guard cursor.peek() == UInt8(ascii: "{") else { throw Unsupported() }
        _ = try transactionFields.read(&cursor) { (cursor: inout ByteCursor, key: Range<Int>) throws(Unsupported) in
            // Restored revocations change what "revoked at T" means: the full path reads them.
            if cursor.equals(key, "restored_revocations") { throw Unsupported() }
            _ = try cursor.value()
        }
        let fields = transactionFields, bytes = cursor.bytes
        guard let id = try Self.asciiString(fields.values[T.transactionID], bytes), !id.isEmpty,
              let type = try Self.asciiString(fields.values[T.type], bytes), !type.isEmpty
        else { throw Unsupported() }
        let original = try Self.asciiString(fields.values[T.originalTransactionID], bytes) ?? id
        let kind = CheckTransaction.Kind(UnsafeBufferPointer(rebasing: bytes[type]))
        let product = try Self.asciiString(fields.values[T.productID], bytes)
        let entitlement = try Self.asciiString(fields.values[T.entitlement], bytes)
        if kind == .manualGrant {
            if entitlement?.isEmpty ?? true { throw Unsupported() }
        } else if product?.isEmpty ?? true {
            throw Unsupported()
        }
        let store = try Self.asciiString(fields.values[T.store], bytes)
        if let store {
            // A space makes "store id" keys ambiguous: `ProfileDecoder` leaves those to the tree.
            if memchr(bytes.baseAddress! + store.lowerBound, 0x20, store.count) != nil { throw Unsupported() }
        } else if kind != .manualGrant {
            throw Unsupported()
        }
        guard let purchasedAt = try fields.optionalDate(T.purchasedAt, bytes) else { throw Unsupported() }
        let environment = try Self.asciiString(fields.values[T.environment], bytes)
        let ownership = try Self.asciiString(fields.values[T.ownershipType], bytes)
        let offerCode = try Self.optionalString(fields.values[T.offerCode])
        try Self.checkNumber(fields.values[T.price], bytes)
        let transaction = CheckTransaction(
            id: id, original: original, product: product, store: store, entitlement: entitlement, kind: kind, purchasedAt: purchasedAt,
            startsAt: try fields.optionalDate(T.startsAt, bytes), expiresAt: try fields.optionalDate(T.expiresAt, bytes),
            revokedAt: try fields.optionalDate(T.revokedAt, bytes), revocationReason: try Self.optionalString(fields.values[T.revocationReason]),
            grantedAt: try fields.optionalDate(T.grantedAt, bytes),
            isSandbox: environment.map { ByteCursor.equals(bytes, $0, "sandbox") } ?? false,
            isFamilySharing: ownership.map { ByteCursor.equals(bytes, $0, "family_sharing") } ?? false,
            hasOfferCode: !(offerCode?.isEmpty ?? true), isUpgraded: try fields.optionalBool(T.isUpgraded),
            price: Self.numberRange(fields.values[T.price]), currency: try Self.optionalString(fields.values[T.currency]))
        // The other fields: only their types are checked, as the decoder reads them.
        for slot in Self.typeCheckedStrings { _ = try Self.optionalString(fields.values[slot]) }
        _ = try fields.optionalObject(T.vendor)
        return transaction
    }

    /// The string fields whose type alone is checked (built once: a literal here was an array a transaction).
    static let typeCheckedStrings = [T.revokedBy, T.grantedBy, T.reason, T.idempotencyKey]

    /// A string's range, nil when absent or null; anything else gives up.
    @inline(__always)
    static func optionalString(_ value: ScannedValue) throws(Unsupported) -> Range<Int>? {
        switch value {
        case .absent, .null: return nil
        case .string(let range, _): return range
        default: throw Unsupported()
        }
    }

    /// `optionalString`, giving up on text outside ASCII (which `String` may compare equal to other bytes).
    @inline(__always)
    static func asciiString(_ value: ScannedValue, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Range<Int>? {
        switch value {
        case .absent, .null: return nil
        case .string(let range, true): return range
        default: throw Unsupported()
        }
    }

    /// The literal of a number `checkNumber` accepted; nil when absent or null.
    @inline(__always)
    static func numberRange(_ value: ScannedValue) -> Range<Int>? {
        if case .number(let range) = value { return range }
        return nil
    }

    /// `FieldReader.optionalNumber`: a finite `Double`. A literal of fewer than 300 bytes without
    /// an exponent is always finite; the others are converted as the decoder does.
    static func checkNumber(_ value: ScannedValue, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) {
        switch value {
        case .absent, .null: return
        case .number(let range):
            if range.count < 300, memchr(bytes.baseAddress! + range.lowerBound, Int32(UInt8(ascii: "e")), range.count) == nil,
               memchr(bytes.baseAddress! + range.lowerBound, Int32(UInt8(ascii: "E")), range.count) == nil {
                return
            }
            guard let number = Double(ScannedFields.makeString(range, bytes)), number.isFinite else { throw Unsupported() }
        default: throw Unsupported()
        }
    }
}
