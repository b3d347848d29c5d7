import FoundationEssentials
import EntitlementJSON

/// What `status --json` lists besides the access levels, chosen as the CLI's `ProfileJSON`
/// chooses it from a `Profile` (its twin, rule for rule): the latest transaction of each
/// subscription product, the one-time purchases by product, and the revenue.
extension FlatProfile {
    /// `ProfileJSON.writeSubscriptions`' choice: the latest transaction (`StatusEngine.recencyOrder`)
    /// of each subscription product, in the byte order of the product ids.
    package func latestSubscriptions() -> [Int] {
        var latest = [Int](repeating: -1, count: products.count)
        var listed: [Int] = []
        for (position, transaction) in transactions.enumerated() where !transaction.isManualGrant && transaction.showsAsSubscription {
            let number = Int(product[position])
            guard number >= 0 else { continue }
            let current = latest[number]
            if current < 0 {
                listed.append(number)
            } else if !OneEntitlementEngine.recencyOrder(transactions[current], transactions[current].expiresAt, transaction, transaction.expiresAt, bytes) {
                continue
            }
            latest[number] = position
        }
        return sortedByProduct(listed).map { latest[$0] }
    }

    /// For each of `positions`: the first transaction of its subscription by start (the first of
    /// equal starts) and the latest access end of the subscription (`distantPast` when none
    /// ends), over every known transaction with its original id, as `ProfileJSON.chains` finds them.
    package func chains(of positions: [Int]) -> [(first: Int, end: Date)] {
        var slot = [Int](repeating: -1, count: originals.count)
        var chains: [(first: Int, end: Date?)] = []
        for position in positions where slot[Int(original[position])] < 0 {
            slot[Int(original[position])] = chains.count
            chains.append((-1, nil))
        }
        for position in transactions.indices {
            let index = slot[Int(original[position])]
            guard index >= 0 else { continue }
            let first = chains[index].first
            if first < 0 || transactions[position].effectiveStart < transactions[first].effectiveStart { chains[index].first = position }
            if let end = end(of: position), chains[index].end.map({ end > $0 }) ?? true { chains[index].end = end }
        }
        return positions.map { position in
            let chain = chains[slot[Int(original[position])]]
            return (chain.first, chain.end ?? .distantPast)
        }
    }

    /// `ProfileJSON.appendNonSubscriptions`' choice: purchases that are neither manual grants
    /// nor subscriptions, by purchase date (stable), grouped by product in the byte order of the product ids.
    package func purchasesByProduct() -> [(product: Int, positions: [Int])] {
        var purchases: [Int] = []
        for position in transactions.indices where !transactions[position].isManualGrant && !transactions[position].showsAsSubscription {
            purchases.append(position)
        }
        if zip(purchases, purchases.dropFirst()).contains(where: { transactions[$1].purchasedAt < transactions[$0].purchasedAt }) {
            purchases = purchases.enumerated().sorted {
                let a = transactions[$0.element].purchasedAt, b = transactions[$1.element].purchasedAt
                return a != b ? a < b : $0.offset < $1.offset
            }.map(\.element)
        }
        var slot = [Int](repeating: -1, count: products.count)
        var groups: [(product: Int, positions: [Int])] = []
        for position in purchases {
            let number = Int(product[position])
            guard number >= 0 else { continue }
            if slot[number] < 0 {
                slot[number] = groups.count
                groups.append((number, []))
            }
            groups[slot[number]].positions.append(position)
        }
        let order = sortedByProduct(groups.map(\.product))
        return order.map { groups[slot[$0]] }
    }

    /// `ProfileJSON.totalRevenueUSD`: USD prices (in cents, rounded) of transactions not refunded, in file order.
    package func totalRevenueUSD() -> Double {
        var cents = 0.0
        for transaction in transactions where transaction.revokedAt == nil {
            guard let currency = transaction.currency, let price = transaction.price, isUSD(currency),
                  let value = ScannedFields.number(price, bytes) else { continue }
            cents += (value * 100).rounded()
        }
        return cents / 100
    }

    /// `currency == "USD" || currency.uppercased() == "USD"`: for ASCII, the letters u, s, d in any case.
    private func isUSD(_ range: Range<Int>) -> Bool {
        let text = UnsafeBufferPointer(rebasing: bytes[range])
        guard text.allSatisfy({ $0 < 0x80 }) else {
            let currency = OneEntitlementEngine.text(bytes, range)
            return currency == "USD" || currency.uppercased() == "USD"
        }
        return text.count == 3 && text[0] | 0x20 == UInt8(ascii: "u") && text[1] | 0x20 == UInt8(ascii: "s") && text[2] | 0x20 == UInt8(ascii: "d")
    }

    /// Product numbers in the byte order of their ids (`JSONKey.precedes`).
    private func sortedByProduct(_ numbers: [Int]) -> [Int] {
        numbers.sorted { JSONKey.compare(productBytes($0), productBytes($1)) < 0 }
    }

    /// Where the id of product number `number` is in the file.
    package func productRange(_ number: Int) -> Range<Int> { products.range(of: number) }

    private func productBytes(_ number: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[products.range(of: number)])
    }
}
