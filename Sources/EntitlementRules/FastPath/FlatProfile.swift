import FoundationEssentials
import EntitlementJSON

/// A profile file read by `CheckProfileScanner`, as known at one instant, in flat arrays:
/// the transactions as byte ranges and dates, and for each the number of its original id,
/// of its product and of what it unlocks, and its supersession. No `Profile`, and no object
/// and no `String` per transaction: what `status --json` of a profile with 10,000
/// transactions works over (`FlatStatusEngine`, then the CLI's `ProfileJSON.renderFlat`).
///
/// Twin of `Profile.asKnown(at:)` and `Supersession.all` (Engine/), rule for rule. Ids
/// compare as bytes, which the scanner allows only for ASCII (where bytes and `String`
/// agree). `FlatStatusTests` compare both paths' output byte for byte.
package struct FlatProfile {
    package let bytes: UnsafeBufferPointer<UInt8>
    package let date: Date
    /// The transactions recorded by `date`, in file order, with revocations made after `date` undone.
    package private(set) var transactions: [CheckTransaction] = []
    /// Per transaction: the number of its `original_transaction_id` in `originals`.
    package private(set) var original: [Int32] = []
    /// Per transaction: the number of its product in `products`; -1 without one.
    package private(set) var product: [Int32] = []
    /// Per transaction: whether and when it was superseded (`supersededAt(_:)`), as `Supersession.all` finds it.
    var superseded: [StoredSupersession] = []
    /// The renewal infos as known at `date`, and which one each original id has (-1: none).
    var renewals: [CheckRenewal]
    var renewalOfOriginal: [Int32] = []
    var originals: ByteRangeTable
    private(set) var products: ByteRangeTable
    /// The entitlements manual grants give, over every transaction (recorded by `date` or
    /// not, as `StatusEngine.entitlementIDs` reads them), numbered in order of first appearance.
    var grantedEntitlements: ByteRangeTable
    package let customerUserID: Range<Int>
    package let profileID: Range<Int>?
    /// `created_at`, nil when it is after `date`.
    package let createdAt: Date?
    package let customAttributes: Range<Int>?
    package let lastEvent: Range<Int>?

    /// The file `scanner` last read from `bytes`, as known at `date`; takes the scanner's
    /// transactions (it is left without any), so that 10,000 of them are not copied.
    package init(_ scanner: inout CheckProfileScanner, bytes: UnsafeBufferPointer<UInt8>, at date: Date) {
        self.bytes = bytes
        self.date = date
        customerUserID = scanner.customerUserID
        profileID = scanner.profileID
        createdAt = scanner.createdAt.flatMap { $0 > date ? nil : $0 }
        customAttributes = scanner.customAttributes
        lastEvent = scanner.lastEvent
        swap(&transactions, &scanner.transactions)
        let count = transactions.count
        originals = ByteRangeTable(expected: count)
        products = ByteRangeTable(expected: 64)
        grantedEntitlements = ByteRangeTable(expected: 8)
        renewals = scanner.renewals
        original.reserveCapacity(count)
        product.reserveCapacity(count)
        var stores = StoreNumbers()
        // `is_upgraded` is not known yet where a later transaction of its chain (store and original id) is left out.
        var laterChains: Set<Int64> = []
        var lastProduct: (range: Range<Int>, number: Int32)?
        // Filtered in place: the known ones move to the front, in file order.
        var kept = 0
        for index in 0..<count {
            let transaction = transactions[index]
            if transaction.isManualGrant, let entitlement = transaction.entitlement { _ = grantedEntitlements.number(entitlement, in: bytes) }
            let originalNumber = originals.number(transaction.original, in: bytes).number
            if transaction.recordedAt > date {
                if !transaction.isManualGrant { laterChains.insert(Int64(stores.tag(transaction.store, bytes)) << 32 | Int64(originalNumber)) }
                continue
            }
            if kept != index { transactions[kept] = transaction }
            if let revokedAt = transaction.revokedAt, revokedAt > date {
                transactions[kept].revokedAt = nil
                transactions[kept].revocationReason = nil
            }
            kept += 1
            original.append(originalNumber)
            // Runs of one product are common: compared with the last before hashed.
            guard let range = transaction.product else { product.append(-1); continue }
            if let last = lastProduct, ByteRangeTable.same(UnsafeBufferPointer(rebasing: bytes[last.range]), UnsafeBufferPointer(rebasing: bytes[range])) {
                product.append(last.number)
            } else {
                let number = products.number(range, in: bytes).number
                lastProduct = (range, number)
                product.append(number)
            }
        }
        transactions.removeSubrange(kept...)
        if !laterChains.isEmpty {
            for index in transactions.indices where transactions[index].isUpgraded == true
                && laterChains.contains(Int64(stores.tag(transactions[index].store, bytes)) << 32 | Int64(original[index])) {
                transactions[index].isUpgraded = nil
            }
        }
        makeRenewalsKnown()
        findSupersessions()
    }

    /// The renewal info of the transaction at `position`'s subscription.
    package func renewal(of position: Int) -> CheckRenewal? {
        let index = renewalOfOriginal[Int(original[position])]
        return index < 0 ? nil : renewals[Int(index)]
    }

    /// When access from the transaction at `position` ends (`Supersession.end`).
    package func end(of position: Int) -> Date? {
        OneEntitlementEngine.end(of: transactions[position], superseded[position].value)
    }

    /// Nil when the transaction at `position` was not superseded, else when (`.some(nil)`:
    /// marked upgraded, the replacing transaction unknown).
    func supersededAt(_ position: Int) -> Date?? { superseded[position].value }

    /// `Profile.asKnown(at:)` of the renewal infos: facts dated after `date` undone.
    private mutating func makeRenewalsKnown() {
        renewalOfOriginal = Array(repeating: -1, count: originals.count)
        for index in renewals.indices {
            if let unsubscribedAt = renewals[index].unsubscribedAt, unsubscribedAt > date {
                renewals[index].unsubscribedAt = nil
                if renewals[index].willRenew == false { renewals[index].willRenew = true }
            }
            if let detected = renewals[index].billingIssueDetectedAt, detected > date {
                renewals[index].billingIssueDetectedAt = nil
                renewals[index].gracePeriodExpiresAt = nil
                if renewals[index].isInBillingRetry == true { renewals[index].isInBillingRetry = false }
            }
            if let pausedAt = renewals[index].pausedAt, pausedAt > date {
                renewals[index].pausedAt = nil
                renewals[index].resumesAt = nil
                if renewals[index].isPaused == true { renewals[index].isPaused = false }
            }
            // Keys are unique (the scanner checked); a key no transaction has is never looked up.
            if let number = originals.find(UnsafeBufferPointer(rebasing: bytes[renewals[index].key]), in: bytes) {
                renewalOfOriginal[Int(number)] = Int32(index)
            }
        }
    }
}
