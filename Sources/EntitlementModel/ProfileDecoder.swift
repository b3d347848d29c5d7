import Glibc
import EntitlementJSON

/// Reads a profile straight from its file's bytes, in one pass, without a `JSONValue` tree.
///
/// Only the fields the model has are decoded; every object keeps its bytes (`RawObject`),
/// so unknown and vendor fields survive a rewrite as before, parsed only when a command
/// rewrites the profile. The decoder accepts exactly what `JSONParser` and
/// `Profile(json:)` accept, or gives up: then `decode` returns nil and the caller takes the
/// tree path, which gives the same profile or reports the error (path, line, column)
/// as it always has. Escapes, a byte-order mark and unusual shapes also take that path.
@usableFromInline
package struct ProfileDecoder {
    let source: [UInt8]
    var cursor: ByteCursor
    var transactionFields = ScannedFields(Transaction.fieldTable, interning: true)
    var renewalFields = ScannedFields(RenewalInfo.fieldTable, interning: true)
    /// Where each transaction's store and id are, while every one is ASCII (then byte
    /// equality is `String` equality, and the unique-id check needs no strings).
    var idRanges: [(store: Range<Int>, id: Range<Int>)] = []
    var idRangesComplete = true

    /// The profile in `bytes`, or nil when the tree path must decide.
    package static func decode(_ bytes: [UInt8]) -> Profile? {
        bytes.withUnsafeBufferPointer { buffer in
            var decoder = ProfileDecoder(source: bytes, buffer: buffer)
            return try? decoder.profile()
        }
    }

    private init(source: [UInt8], buffer: UnsafeBufferPointer<UInt8>) {
        self.source = source
        cursor = ByteCursor(buffer)
    }

    /// The profile keys, by slot.
    package static let fieldTable = FieldTable([
        Profile.CodingKeys.schemaVersion, .profileID, .customerUserID, .createdAt, .customAttributes, .transactions, .renewalInfo,
    ].map { $0.rawValue })

    /// The slots of `fieldTable`, named for the byte decoder and the check scanner.
    /// Computed and `@inlinable`: other modules (the check scanner) read them as constants;
    /// `static let`s were a lazy global's accessor each, per field of every transaction.
    @usableFromInline
    package enum Slot {
        @inlinable package static var schemaVersion: Int { 0 }
        @inlinable package static var profileID: Int { 1 }
        @inlinable package static var customerUserID: Int { 2 }
        @inlinable package static var createdAt: Int { 3 }
        @inlinable package static var customAttributes: Int { 4 }
        @inlinable package static var transactions: Int { 5 }
        @inlinable package static var renewalInfo: Int { 6 }
    }

    private mutating func profile() throws(Unsupported) -> Profile {
        // A document that starts with anything but an object (or a byte-order mark) goes to the tree path.
        cursor.skipWhitespace()
        let start = cursor.index
        try cursor.expect(UInt8(ascii: "{"))
        var fields = ScannedFields(Self.fieldTable, interning: true)
        let unknownKeys = cursor.beginKeys()
        defer { cursor.endKeys(unknownKeys) }
        var transactions: [Transaction] = []
        var renewals: [String: RenewalInfo] = [:]
        var first = true
        // Where each member is (key, value), so that one field the model does not read
        // (`last_event`, `aliases`) is found later without walking the file again.
        var members: [Range<Int>] = []
        while let key = try cursor.nextKey(first: &first) {
            let valueStart = cursor.index
            defer { members += [key, valueStart..<cursor.index] }
            guard let slot = fields.slot(key, cursor.bytes) else {
                try cursor.addKey(key, since: unknownKeys)
                _ = try cursor.value()
                continue
            }
            switch (slot, cursor.peek()) {
            case (Slot.customAttributes, UInt8(ascii: "{")):
                try cursor.skipCustomAttributes()
                try fields.set(slot, .object(valueStart..<cursor.index))
            case (Slot.transactions, UInt8(ascii: "[")):
                transactions = try readTransactions()
                try fields.set(slot, .array(valueStart..<cursor.index))
            case (Slot.renewalInfo, UInt8(ascii: "{")):
                renewals = try readRenewals()
                try fields.set(slot, .object(valueStart..<cursor.index))
            default:
                try fields.set(slot, try cursor.value())
            }
        }
        let range = start..<cursor.index
        cursor.skipWhitespace()
        guard cursor.index == cursor.bytes.count else { throw Unsupported() }
        // The checks of `SchemaVersion.check` and `Profile(json:)`.
        guard (try fields.optionalInt(Slot.schemaVersion, cursor.bytes) ?? 1) == SchemaVersion.current else { throw Unsupported() }
        var profile = Profile(profileID: try fields.optionalString(Slot.profileID, cursor.bytes), customerUserID: try fields.identifier(Slot.customerUserID, cursor.bytes),
                              createdAt: try fields.optionalDate(Slot.createdAt, cursor.bytes))
        if let attributes = try fields.optionalObject(Slot.customAttributes) { profile.customAttributesStorage = RawObject(bytes: source, range: attributes) }
        switch fields.values[Slot.transactions] {
        case .absent, .null, .array: break
        default: throw Unsupported()
        }
        _ = try fields.optionalObject(Slot.renewalInfo)
        profile.transactions = transactions
        profile.renewalInfo = renewals
        profile.rawStorage = RawObject(bytes: source, range: range, members: members)
        return profile
    }


    private mutating func readTransactions() throws(Unsupported) -> [Transaction] {
        // Room for as many transactions as the file could hold (each takes well over 128
        // bytes), so that neither array is copied as it grows: memory reserved and never
        // written costs nothing, and a 10,000-transaction file grew them a dozen times.
        let room = max(64, cursor.bytes.count / 128)
        var transactions: [Transaction] = []
        transactions.reserveCapacity(room)
        idRanges.reserveCapacity(room)
        cursor.index += 1
        var first = true
        while try cursor.nextElement(first: &first) {
            transactions.append(try readTransaction())
        }
        if idRangesComplete {
            try checkUniqueIDRanges()
        } else {
            try Self.checkUniqueIDs(transactions)
        }
        return transactions
    }

    private mutating func readRenewals() throws(Unsupported) -> [String: RenewalInfo] {
        var renewals: [String: RenewalInfo] = [:]
        cursor.index += 1
        var first = true
        while let key = try cursor.nextKey(first: &first) {
            let info = try readRenewal()
            // A repeated key (or two keys Swift deems equal) is the tree path's to judge.
            guard renewals.updateValue(info, forKey: ScannedFields.makeString(key, cursor.bytes)) == nil else { throw Unsupported() }
        }
        return renewals
    }

    /// Transaction ids are unique per store (`Profile(json:)` keys them by "store id").
    static func checkUniqueIDs(_ transactions: [Transaction]) throws(Unsupported) {
        // With no space in a store name, "store id" strings are equal exactly when both parts are.
        for transaction in transactions where transaction.store.rawValue.utf8.contains(0x20) { throw Unsupported() }
        if transactions.count <= 16 {
            for (index, transaction) in transactions.enumerated() {
                for earlier in transactions[..<index] where earlier.transactionID == transaction.transactionID && earlier.store == transaction.store {
                    throw Unsupported()
                }
            }
            return
        }
        var seen = Set<StoreAndID>()
        seen.reserveCapacity(transactions.count)
        for transaction in transactions where !seen.insert(StoreAndID(store: transaction.store.rawValue, id: transaction.transactionID)).inserted {
            throw Unsupported()
        }
    }

    private struct StoreAndID: Hashable {
        var store: String
        var id: String
    }
}

extension ByteCursor {
    /// Skips `custom_attributes` (the cursor on its `{`), checking what the model requires:
    /// values are strings, numbers or null, and no key repeats.
    package mutating func skipCustomAttributes() throws(Unsupported) {
        index += 1
        let keys = beginKeys()
        defer { endKeys(keys) }
        var first = true
        while let key = try nextKey(first: &first) {
            try addKey(key, since: keys)
            switch try value() {
            case .string, .number, .null: continue
            default: throw Unsupported()
            }
        }
    }
}
