import EntitlementBasics
import EntitlementModel

extension ProfileJSON {
    /// Up to this many chains are found by a pass over the transactions each.
    static let chainPassLimit = 8

    /// The transactions of each subscription chain named in `originals`, in profile order.
    ///
    /// A few chains (the usual customer, even one with 10,000 renewals) are found by a pass
    /// each, comparing ids; more are found in one pass through a table, so that a profile of
    /// thousands of subscriptions costs one pass, not one per subscription, which made
    /// `status --json` products × transactions. Either way the work is at
    /// most `chainPassLimit` passes, which `counter` counts.
    static func chains(of originals: [String], in profile: Profile, counter: WorkCounter?) -> [String: [Transaction]] {
        var chains: [String: [Transaction]] = [:]
        if originals.count <= chainPassLimit {
            for original in originals where chains[original] == nil {
                chains[original] = profile.transactions.filter { $0.originalTransactionID == original }
                counter.add(profile.transactions.count)
            }
            return chains
        }
        for original in originals { chains[original] = [] }
        for transaction in profile.transactions { chains[transaction.originalTransactionID]?.append(transaction) }
        counter.add(profile.transactions.count)
        return chains
    }
}
