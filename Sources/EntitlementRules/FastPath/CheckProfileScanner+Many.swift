import EntitlementJSON

extension CheckProfileScanner {
    /// `readTransactions`' unique-id check for more transactions than `maximumTransactions`:
    /// each (store, id) hashed once rather than compared with every earlier one.
    func checkUniqueIDsHashed(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) {
        var stores = StoreNumbers()
        var ids = ByteRangeTable(expected: transactions.count)
        for transaction in transactions where !ids.number(transaction.id, tag: stores.tag(transaction.store, bytes), in: bytes).isNew {
            throw Unsupported()
        }
    }

    /// `readRenewals`' repeated-key check for more renewal infos than `maximumRenewals`.
    func checkUniqueRenewalKeysHashed(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) {
        var keys = ByteRangeTable(expected: renewals.count)
        for renewal in renewals where !keys.number(renewal.key, in: bytes).isNew { throw Unsupported() }
    }
}

/// A number per store name, as `sameStore` compares them: no store and `manual` are one.
struct StoreNumbers {
    private var names = ByteRangeTable(expected: 4)

    /// 0 for `manual` (or no store), else 1 + the name's number.
    mutating func tag(_ store: Range<Int>?, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let store, !CheckProfileScanner.sameStore(bytes, store, nil) else { return 0 }
        return names.number(store, in: bytes).number + 1
    }
}
