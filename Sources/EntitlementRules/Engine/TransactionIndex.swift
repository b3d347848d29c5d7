import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// The transactions of one evaluation basis by what they unlock, built once so that each
/// entitlement looks only at its own (`status` of a profile with 8,000
/// entitlements visited every transaction once per entitlement).
///
/// A transaction unlocks through exactly one key: its product, or for a manual grant its
/// entitlement. So the candidates of an entitlement are the union of disjoint lists, put
/// back in profile order to keep the engine's answers (and tie rules) unchanged.
struct TransactionIndex {
    /// What a transaction unlocks through.
    enum Key: Hashable {
        case product(String)
        case grant(String)

        init?(_ transaction: Transaction) {
            if transaction.isManualGrant {
                guard let entitlement = transaction.entitlement else { return nil }
                self = .grant(entitlement)
            } else {
                guard let product = transaction.productID else { return nil }
                self = .product(product)
            }
        }
    }

    /// Positions in the known profile's transactions, ascending, per key.
    private let transactions: [Key: [Int]]
    /// Positions in the basis's ignored records, ascending, per key of a transaction of the
    /// full profile that the record is about (by transaction or original transaction id).
    private let ignored: [Key: [Int]]

    init(known: Profile, full: Profile, ignored records: [IgnoredRecord], counter: WorkCounter?) {
        var transactions: [Key: [Int]] = [:]
        for (position, transaction) in known.transactions.enumerated() {
            if let key = Key(transaction) { transactions[key, default: []].append(position) }
        }
        counter.add(known.transactions.count)
        self.transactions = transactions
        var ignored: [Key: [Int]] = [:]
        if !records.isEmpty {
            // The transactions each record can be about: its subject is a transaction id or an original id.
            var bySubject: [String: [Int]] = [:]
            for (position, transaction) in full.transactions.enumerated() {
                bySubject[transaction.transactionID, default: []].append(position)
                if transaction.originalTransactionID != transaction.transactionID {
                    bySubject[transaction.originalTransactionID, default: []].append(position)
                }
            }
            counter.add(full.transactions.count)
            for (position, record) in records.enumerated() {
                for about in bySubject[record.subject] ?? [] {
                    counter.add(1)
                    guard let key = Key(full.transactions[about]) else { continue }
                    if ignored[key]?.last != position { ignored[key, default: []].append(position) }
                }
            }
        }
        self.ignored = ignored
    }

    /// Positions of the transactions that unlock `entitlement` (through `products` or a grant), in profile order.
    func transactions(unlocking entitlement: String, products: [String], counter: WorkCounter?) -> [Int] {
        Self.union(transactions, entitlement: entitlement, products: products, counter: counter)
    }

    /// Positions of the ignored records about a transaction that unlocks `entitlement`, in record order.
    func ignored(unlocking entitlement: String, products: [String], counter: WorkCounter?) -> [Int] {
        ignored.isEmpty ? [] : Self.union(ignored, entitlement: entitlement, products: products, counter: counter)
    }

    /// The lists of the entitlement's keys, merged in ascending order without repeats.
    private static func union(_ lists: [Key: [Int]], entitlement: String, products: [String], counter: WorkCounter?) -> [Int] {
        var result = lists[.grant(entitlement)] ?? []
        var seen: Set<String> = []
        for product in products where seen.insert(product).inserted {
            if let list = lists[.product(product)] { result += list }
        }
        counter.add(products.count + result.count)
        // One list is already in order; several are sorted together (stable order is not needed: positions are distinct).
        if result.count > 1 {
            result.sort { counter.add(1); return $0 < $1 }
            var unique = 0
            for position in result.indices where unique == 0 || result[unique - 1] != result[position] {
                result[unique] = result[position]
                unique += 1
            }
            result.removeSubrange(unique...)
        }
        return result
    }
}
