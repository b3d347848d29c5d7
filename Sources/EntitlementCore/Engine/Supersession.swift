import FoundationEssentials

/// Within one subscription (one `original_transaction_id`), a transaction gives access
/// only until the next transaction of that chain starts: an upgrade, a crossgrade or a
/// plan change replaces the period it interrupts. Renewals start when the previous
/// period ends, so they replace nothing.
public struct Supersession: Equatable, Sendable {
    /// The transaction that took over, or nil when the vendor said the transaction was
    /// upgraded (`is_upgraded`) but the replacing one is not in the profile.
    public var by: String?
    /// When the replaced transaction stopped giving access; nil when unknown (see `by`).
    public var at: Date?

    /// The supersession of each transaction of `profile` that was replaced, keyed by
    /// `Supersession.key(of:)`.
    static func all(in profile: Profile) -> [String: Supersession] {
        var chains: [String: [Transaction]] = [:]
        for transaction in profile.transactions where transaction.type != .consumablePurchase && !transaction.isManualGrant {
            chains[transaction.originalTransactionID, default: []].append(transaction)
        }
        var result: [String: Supersession] = [:]
        for var chain in chains.values {
            // By start, then id: the next transaction is the first one that starts later.
            chain.sort { $0.effectiveStart != $1.effectiveStart ? $0.effectiveStart < $1.effectiveStart : $0.transactionID < $1.transactionID }
            var nextIndex = 0
            for (index, transaction) in chain.enumerated() {
                nextIndex = max(nextIndex, index + 1)
                while nextIndex < chain.count, chain[nextIndex].effectiveStart <= transaction.effectiveStart { nextIndex += 1 }
                let next = nextIndex < chain.count ? chain[nextIndex] : nil
                if let next, next.effectiveStart < (transaction.expiresAt ?? .distantFuture) {
                    result[key(of: transaction)] = Supersession(by: next.transactionID, at: next.effectiveStart)
                } else if transaction.isUpgraded == true, next == nil {
                    result[key(of: transaction)] = Supersession(by: nil, at: nil)
                }
            }
        }
        return result
    }

    /// Transaction ids are unique per store.
    static func key(of transaction: Transaction) -> String { transaction.store.rawValue + " " + transaction.transactionID }

    /// When access from `transaction` ends: the earlier of its expiry and its supersession.
    static func end(of transaction: Transaction, _ supersession: Supersession?) -> Date? {
        guard let supersession else { return transaction.expiresAt }
        guard let at = supersession.at else { return transaction.effectiveStart }
        return min(at, transaction.expiresAt ?? at)
    }
}
