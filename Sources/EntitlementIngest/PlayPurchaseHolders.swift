import Synchronization
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// Finds the customer of a voided Google Play purchase: the one whose profile holds a Play
/// transaction with its purchase token. One sweep of the profiles a batch, with a byte
/// prefilter on the tokens; never during a webhook's deadline (`sweeps` false), where the
/// event fails, kept, and the next `ingest` finds the customer.
struct PlayPurchaseHolders {
    let store: EntitlementStore
    let sweeps: Bool

    /// The batch with each voided purchase's customer set where one customer holds its token.
    func resolving(_ batch: [(unit: IngestUnit, events: [IngestEvent])]) -> [(unit: IngestUnit, events: [IngestEvent])] {
        let tokens = Set(batch.flatMap { $0.events.compactMap { $0.customer == nil ? $0.effects.playRevocation?.token : nil } })
        guard !tokens.isEmpty else { return batch }
        let holders = sweeps ? holders(of: tokens) : [:]
        return batch.map { item in
            (item.unit, item.events.map { event in
                guard event.customer == nil, let token = event.effects.playRevocation?.token else { return event }
                var resolved = event
                if let users = holders[token], users.count == 1 { resolved.customer = users.first }
                resolved.effects.holderSwept = sweeps && (holders[token]?.count ?? 0) <= 1
                return resolved
            })
        }
    }

    /// Every customer holding each token.
    private func holders(of tokens: Set<String>) -> [String: Set<String>] {
        let found = Mutex<[String: Set<String>]>([:])
        let sweep = ProfileSweep<[(token: String, user: String)]>(
            scan: ProfileScan(store: store), prefilter: ProfilePrefilter(containingAnyOf: Array(tokens)), makePart: { [] },
            visit: { part, profile in
                for transaction in profile.transactions where transaction.store == .playStore {
                    let token = PlayRevocation.token(of: transaction)
                    if tokens.contains(token) { part.append((token, profile.customerUserID)) }
                }
            }, fail: { _, _ in })
        try? sweep.run { part in found.withLock { for (token, user) in part { $0[token, default: []].insert(user) } } }
        return found.withLock { $0 }
    }
}
