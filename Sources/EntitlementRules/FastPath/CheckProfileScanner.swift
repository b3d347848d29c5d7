import FoundationEssentials
import Glibc
import EntitlementJSON
import EntitlementModel

/// Reads a profile file for `check --stdin`: the same strict pass over every byte as
/// `ProfileDecoder`, with the same checks of every field, but each transaction is kept as
/// a `CheckTransaction` (byte ranges and dates) instead of a `Transaction`.
///
/// It accepts only files that `ProfileDecoder` decodes, and gives up (`Unsupported`) on
/// everything else and on anything where bytes and Swift's `String` rules could differ:
/// a non-ASCII id, store, type, product, entitlement, environment or ownership type (two
/// spellings of one string compare equal as `String`s), a `restored_revocations` key, a
/// store name with a space, more than `limit` transactions or renewal infos. The caller then
/// takes the full path, which answers (or reports the error) as it always has.
/// One scanner is reused from file to file, so its arrays are allocated once.
package struct CheckProfileScanner {
    typealias T = ProfileDecoder.TransactionSlot
    typealias R = ProfileDecoder.RenewalSlot

    /// `check`'s limit: more transactions (or renewal infos) than this take the full path.
    /// Up to it ids are compared pairwise; past it (`status --json`, `limit` above) they are hashed.
    static let maximumTransactions = 64
    static let maximumRenewals = 64
    /// How many transactions, and renewal infos, a file may have before the scanner gives up.
    let limit: Int

    private var topFields = ScannedFields(ProfileDecoder.fieldTable)
    var transactionFields = ScannedFields(Transaction.fieldTable)
    var renewalFields = ScannedFields(RenewalInfo.fieldTable)
    /// The last file's transactions and renewal infos, in file order.
    var transactions: [CheckTransaction] = []
    var renewals: [CheckRenewal] = []
    /// The last file's `profile_id` (nil when absent or null) and `customer_user_id`.
    package private(set) var profileID: Range<Int>?
    package private(set) var customerUserID: Range<Int> = 0..<0
    /// The last file's `last_event` object (brackets included), if it has one: `check --json`
    /// reads its `at` (`Profile.lastEventAt` is the full path's reading of the same field).
    package private(set) var lastEvent: Range<Int>?
    /// The last file's `created_at` and `custom_attributes` object (nil when absent or null).
    private(set) var createdAt: Date?
    private(set) var customAttributes: Range<Int>?

    /// The duplicate-key log its cursors use (`ByteCursor.keyLog`).
    private var keyLog: [Range<Int>] = []
    /// The engine's list of candidates (`OneEntitlementEngine.accessLevel`), kept for the next file.
    var candidates: [OneEntitlementEngine.Candidate] = []

    /// `limit` above `maximumTransactions` lets large profiles through (`status --json`).
    package init(limit: Int = CheckProfileScanner.maximumTransactions) {
        self.limit = limit
        transactions.reserveCapacity(32)
        renewals.reserveCapacity(8)
        keyLog.reserveCapacity(32)
        candidates.reserveCapacity(Self.maximumTransactions)
    }

    /// Reads `bytes`; throws `Unsupported` when the full path must decide.
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) {
        transactions.removeAll(keepingCapacity: true)
        renewals.removeAll(keepingCapacity: true)
        lastEvent = nil
        guard bytes.count <= ByteSpan.maximumFile else { throw Unsupported() }
        var cursor = ByteCursor(bytes)
        // The cursor's duplicate-key log is this scanner's, kept from file to file.
        swap(&cursor.keyLog, &keyLog)
        defer {
            swap(&cursor.keyLog, &keyLog)
            keyLog.removeAll(keepingCapacity: true)
        }
        cursor.skipWhitespace()
        try cursor.expect(UInt8(ascii: "{"))
        topFields.begin()
        let unknownKeys = cursor.beginKeys()
        var first = true
        while let key = try cursor.nextKey(first: &first) {
            guard let slot = topFields.slot(key, bytes) else {
                try cursor.addKey(key, since: unknownKeys)
                // Only keys the decoder does not know pay for this comparison, and profiles have few.
                if case .object(let range) = try cursor.value(), Self.isLastEventKey(bytes, key) { lastEvent = range }
                continue
            }
            let valueStart = cursor.index
            switch (slot, cursor.peek()) {
            case (ProfileDecoder.Slot.customAttributes, UInt8(ascii: "{")):
                try cursor.skipCustomAttributes()
                try topFields.set(slot, .object(valueStart..<cursor.index))
            case (ProfileDecoder.Slot.transactions, UInt8(ascii: "[")):
                try readTransactions(&cursor)
                try topFields.set(slot, .array(valueStart..<cursor.index))
            case (ProfileDecoder.Slot.renewalInfo, UInt8(ascii: "{")):
                try readRenewals(&cursor)
                try topFields.set(slot, .object(valueStart..<cursor.index))
            default:
                try topFields.set(slot, try cursor.value())
            }
        }
        cursor.skipWhitespace()
        guard cursor.index == bytes.count else { throw Unsupported() }
        // The checks of `ProfileDecoder.profile()`.
        guard (try topFields.optionalInt(ProfileDecoder.Slot.schemaVersion, bytes) ?? 1) == SchemaVersion.current else { throw Unsupported() }
        profileID = try Self.optionalString(topFields.values[ProfileDecoder.Slot.profileID])
        guard let customer = try Self.optionalString(topFields.values[ProfileDecoder.Slot.customerUserID]), !customer.isEmpty else { throw Unsupported() }
        customerUserID = customer
        createdAt = try topFields.optionalDate(ProfileDecoder.Slot.createdAt, bytes)
        customAttributes = try topFields.optionalObject(ProfileDecoder.Slot.customAttributes)
        switch topFields.values[ProfileDecoder.Slot.transactions] {
        case .absent, .null: transactions.removeAll(keepingCapacity: true)
        case .array: break
        default: throw Unsupported()
        }
        if try topFields.optionalObject(ProfileDecoder.Slot.renewalInfo) == nil { renewals.removeAll(keepingCapacity: true) }
    }

    private mutating func readTransactions(_ cursor: inout ByteCursor) throws(Unsupported) {
        transactions.removeAll(keepingCapacity: true)
        // Past `check`'s limit, room for as many as the file could hold (each takes well over
        // 128 bytes): reserved and never written costs nothing, while growing copied them a dozen times.
        if limit > Self.maximumTransactions { transactions.reserveCapacity(max(64, cursor.bytes.count / 128)) }
        cursor.index += 1
        var first = true
        while try cursor.nextElement(first: &first) {
            guard transactions.count < limit else { throw Unsupported() }
            transactions.append(try readTransaction(&cursor))
        }
        // Ids are unique per store (`Profile(json:)`); a transaction without a store is `manual`'s.
        let bytes = cursor.bytes
        guard transactions.count <= Self.maximumTransactions else { return try checkUniqueIDsHashed(bytes) }
        for (index, transaction) in transactions.enumerated() {
            for earlier in transactions[..<index] where ByteCursor.same(bytes, earlier.id, transaction.id)
                && Self.sameStore(bytes, earlier.store, transaction.store) {
                throw Unsupported()
            }
        }
    }

    static func sameStore(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>?, _ b: Range<Int>?) -> Bool {
        func named(_ range: Range<Int>?) -> UnsafeBufferPointer<UInt8> {
            guard let range else { return UnsafeBufferPointer(start: Store.manualBytes.utf8Start, count: Store.manualBytes.utf8CodeUnitCount) }
            return UnsafeBufferPointer(rebasing: bytes[range])
        }
        let x = named(a), y = named(b)
        return x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
    }

    private mutating func readRenewals(_ cursor: inout ByteCursor) throws(Unsupported) {
        renewals.removeAll(keepingCapacity: true)
        cursor.index += 1
        var first = true
        while let key = try cursor.nextKey(first: &first) {
            guard renewals.count < limit, Self.isASCII(cursor.bytes, key) else { throw Unsupported() }
            if renewals.count < Self.maximumRenewals {
                for earlier in renewals where cursor.same(earlier.key, key) { throw Unsupported() }
            }
            renewals.append(try readRenewal(&cursor, key: key))
        }
        if renewals.count > Self.maximumRenewals { try checkUniqueRenewalKeysHashed(cursor.bytes) }
    }

    /// The renewal info object at the cursor, with the checks of `RenewalInfo(json:)`.
    private mutating func readRenewal(_ cursor: inout ByteCursor, key: Range<Int>) throws(Unsupported) -> CheckRenewal {
        guard cursor.peek() == UInt8(ascii: "{") else { throw Unsupported() }
        _ = try renewalFields.read(&cursor) { (cursor: inout ByteCursor, _: Range<Int>) throws(Unsupported) in _ = try cursor.value() }
        let bytes = cursor.bytes
        return CheckRenewal(
            key: key, willRenew: try renewalFields.optionalBool(R.willRenew), unsubscribedAt: try renewalFields.optionalDate(R.unsubscribedAt, bytes),
            billingIssueDetectedAt: try renewalFields.optionalDate(R.billingIssueDetectedAt, bytes),
            gracePeriodExpiresAt: try renewalFields.optionalDate(R.gracePeriodExpiresAt, bytes),
            isInBillingRetry: try renewalFields.optionalBool(R.isInBillingRetry), isPaused: try renewalFields.optionalBool(R.isPaused),
            pausedAt: try renewalFields.optionalDate(R.pausedAt, bytes), resumesAt: try renewalFields.optionalDate(R.resumesAt, bytes))
    }

    static let lastEventKey = Array(IngestRecordKeys.lastEvent.utf8)

    static func isLastEventKey(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) -> Bool {
        key.count == lastEventKey.count && lastEventKey.withUnsafeBufferPointer { memcmp(bytes.baseAddress! + key.lowerBound, $0.baseAddress!, key.count) == 0 }
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        for index in range where bytes[index] >= 0x80 { return false }
        return true
    }
}

extension Store {
    /// `Store.manual`'s name, for byte comparisons.
    static let manualBytes: StaticString = "manual"
}
