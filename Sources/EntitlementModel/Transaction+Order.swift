import FoundationEssentials

extension Transaction {
    /// Purchase order, then store and id: the same set of transactions always reads the same
    /// (what ingest and a transfer write).
    package static func canonicalOrder(_ transactions: [Transaction]) -> [Transaction] {
        transactions.sorted {
            ($0.purchasedAt, $0.store.rawValue, $0.transactionID) < ($1.purchasedAt, $1.store.rawValue, $1.transactionID)
        }
    }
}
