import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// Within one subscription (one `original_transaction_id`), a transaction gives access
/// only until the next transaction of that chain starts: an upgrade, a crossgrade or a
/// plan change replaces the period it interrupts. Renewals start when the previous
/// period ends, so they replace nothing.
package struct Supersession: Equatable, Sendable {
    /// The transaction that took over, or nil when the vendor said the transaction was
    /// upgraded (`is_upgraded`) but the replacing one is not in the profile.
    package var by: String?
    /// When the replaced transaction stopped giving access; nil when unknown (see `by`).
    package var at: Date?

    /// A transaction, by store and id (transaction ids are unique per store).
    package struct Key: Hashable {
        var store: String
        var transactionID: String
    }

    /// The supersession of each transaction of `profile` that was replaced, keyed by
    /// `Supersession.key(of:)`.
    package static func all(in profile: Profile, counter: WorkCounter? = nil) -> [Key: Supersession] {
        // Chains hold indices into the profile: no transaction is copied.
        var chains: [String: [Int]] = [:]
        for (index, transaction) in profile.transactions.enumerated() where !transaction.type.is(.consumablePurchase) && !transaction.isManualGrant {
            chains[transaction.originalTransactionID, default: []].append(index)
        }
        var result: [Key: Supersession] = [:]
        profile.transactions.withUnsafeBufferPointer { transactions in
            for var chain in chains.values {
                // By start, then id: the next transaction is the first one that starts later.
                chain.sort {
                    counter.add(1)
                    let a = transactions[$0].effectiveStart, b = transactions[$1].effectiveStart
                    return a != b ? a < b : transactions[$0].transactionID < transactions[$1].transactionID
                }
                var nextIndex = 0
                counter.add(chain.count)
                for (position, index) in chain.enumerated() {
                    let start = transactions[index].effectiveStart
                    nextIndex = max(nextIndex, position + 1)
                    while nextIndex < chain.count, transactions[chain[nextIndex]].effectiveStart <= start { nextIndex += 1 }
                    let next = nextIndex < chain.count ? chain[nextIndex] : nil
                    if let next, transactions[next].effectiveStart < (transactions[index].expiresAt ?? .distantFuture) {
                        result[key(of: transactions[index])] = Supersession(by: transactions[next].transactionID, at: transactions[next].effectiveStart)
                    } else if transactions[index].isUpgraded == true, next == nil {
                        result[key(of: transactions[index])] = Supersession(by: nil, at: nil)
                    }
                }
            }
        }
        return result
    }

    static func key(of transaction: Transaction) -> Key { Key(store: transaction.store.rawValue, transactionID: transaction.transactionID) }

    /// When access from `transaction` ends: the earlier of its expiry and its supersession.
    package static func end(of transaction: Transaction, _ supersession: Supersession?) -> Date? {
        guard let supersession else { return transaction.expiresAt }
        guard let at = supersession.at else { return transaction.effectiveStart }
        return min(at, transaction.expiresAt ?? at)
    }
}
