import FoundationEssentials

extension FlatProfile {
    /// `Supersession.all`: within each subscription (original id) of transactions that are
    /// neither consumables nor manual grants, ordered by start then id, a transaction is
    /// superseded by the first one that starts later, when that start is before its expiry;
    /// the last one is superseded with no successor when marked upgraded.
    mutating func findSupersessions() {
        superseded = Array(repeating: StoredSupersession(nil), count: transactions.count)
        // The chains as runs of one array, by original number, each in file order (a counting sort).
        var starts = [Int32](repeating: 0, count: originals.count + 1)
        func inChain(_ transaction: CheckTransaction) -> Bool { !transaction.isConsumable && !transaction.isManualGrant }
        for index in transactions.indices where inChain(transactions[index]) { starts[Int(original[index]) + 1] += 1 }
        for number in 0..<originals.count { starts[number + 1] += starts[number] }
        var order = [Int32](repeating: 0, count: Int(starts[originals.count]))
        var fill = starts
        for index in transactions.indices where inChain(transactions[index]) {
            let number = Int(original[index])
            order[Int(fill[number])] = Int32(index)
            fill[number] += 1
        }
        let bytes = self.bytes
        transactions.withUnsafeBufferPointer { transactions in
            for number in 0..<originals.count where starts[number + 1] - starts[number] > 0 {
                let chain = Int(starts[number])..<Int(starts[number + 1])
                order[chain].sort {
                    let a = transactions[Int($0)].effectiveStart, b = transactions[Int($1)].effectiveStart
                    return a != b ? a < b : OneEntitlementEngine.lessID(transactions[Int($0)].id, transactions[Int($1)].id, bytes)
                }
                var next = chain.lowerBound
                for position in chain {
                    let index = Int(order[position])
                    let start = transactions[index].effectiveStart
                    next = max(next, position + 1)
                    while next < chain.upperBound, transactions[Int(order[next])].effectiveStart <= start { next += 1 }
                    if next < chain.upperBound, transactions[Int(order[next])].effectiveStart < (transactions[index].expiresAt ?? .distantFuture) {
                        superseded[index] = StoredSupersession(.some(transactions[Int(order[next])].effectiveStart))
                    } else if transactions[index].isUpgraded == true, next == chain.upperBound {
                        superseded[index] = StoredSupersession(.some(nil))
                    }
                }
            }
        }
    }
}
