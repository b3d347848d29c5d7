import FoundationEssentials
import EntitlementModel

/// Twin of `StatusEngine` (Engine/) over a `FlatProfile`: every entitlement's access level at
/// the profile's instant, for `status --json`, with no `Profile` and no `String` per
/// transaction. Keep it equal to the engine, rule for rule; `FlatStatusTests` compare the two
/// paths' `status --json` output byte for byte.
///
/// The candidates of each entitlement come from one index of the transactions by what they
/// unlock (as `TransactionIndex`), so many entitlements cost one pass; the continuous end is
/// one sweep by start, and the latest end of each subscription is kept by original number,
/// so the work is O(n log n) in the transactions, as the engine's. The tie rules are the
/// engine's (`OneEntitlementEngine.decide` follows them).
package struct FlatStatusEngine {
    let configuration: ProductConfiguration
    let environment: EnvironmentFilter

    /// Nil when the byte rules cannot stand in for `String` equality: an entitlement or a
    /// product id of the configuration outside ASCII.
    package init?(configuration: ProductConfiguration, environment: EnvironmentFilter) {
        func ascii(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
        for id in configuration.entitlementIDs {
            guard ascii(id), (configuration.entitlement(id)?.products ?? []).allSatisfy(ascii) else { return nil }
        }
        self.configuration = configuration
        self.environment = environment
    }

    /// `StatusEngine.entitlementIDs(for:)`: the configured ones, then those only manual grants name.
    package func entitlementIDs(for flat: FlatProfile) -> [String] {
        var ids = configuration.entitlementIDs
        var seen = Set(ids)
        for number in 0..<flat.grantedEntitlements.count {
            let id = OneEntitlementEngine.text(flat.bytes, flat.grantedEntitlements.range(of: number))
            if seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// The access level of each of `ids` (`StatusEngine.evaluate(_:in:).accessLevel`).
    package func accessLevels(of ids: [String], in flat: FlatProfile) -> [AccessLevel] {
        let index = UnlockIndex(flat)
        var chainEnd = [StoredDate](repeating: StoredDate(nil), count: flat.originals.count)
        return ids.map { accessLevel($0, candidates: index.positions(unlocking: $0, configuration: configuration, flat), in: flat, chainEnd: &chainEnd) }
    }

    /// One entitlement, over its candidates' positions (in file order); `chainEnd` is all nil
    /// on entry and on return.
    private func accessLevel(_ id: String, candidates positions: [Int], in flat: FlatProfile, chainEnd: inout [StoredDate]) -> AccessLevel {
        guard !positions.isEmpty else { return AccessLevel(id: id, state: .never) }
        var candidates = positions.map { OneEntitlementEngine.Candidate(index: $0, verdict: .consumable, end: flat.end(of: $0), supersededAt: flat.supersededAt($0)) }
        // The latest access end of each subscription: only that transaction can be in grace.
        for candidate in candidates {
            guard let end = candidate.end else { continue }
            let number = Int(flat.original[candidate.index])
            if chainEnd[number].date.map({ end > $0 }) ?? true { chainEnd[number] = StoredDate(end) }
        }
        for position in candidates.indices {
            let candidate = candidates[position]
            candidates[position].verdict = verdict(candidate.index, end: candidate.end, chainEnd: chainEnd[Int(flat.original[candidate.index])].date, in: flat)
        }
        for candidate in candidates { chainEnd[Int(flat.original[candidate.index])] = StoredDate(nil) }
        guard let decider = OneEntitlementEngine(id, configuration: configuration, environment: environment),
              let (decisive, state) = decider.decide(candidates, known: flat.transactions, flat.bytes)
        else { return AccessLevel(id: id, state: .never) }
        return level(id, state: state, decisive: candidates[decisive], candidates: candidates, in: flat)
    }

    /// `StatusEngine.verdict`, for the transaction at `position` whose access ends at `end`,
    /// where `chainEnd` is the latest end of its subscription.
    func verdict(_ position: Int, end: Date?, chainEnd: Date?, in flat: FlatProfile) -> OneEntitlementEngine.Verdict {
        let transaction = flat.transactions[position], date = flat.date
        if transaction.isConsumable { return .consumable }
        guard includes(transaction) else { return .excluded }
        if let revokedAt = transaction.revokedAt, revokedAt <= date { return .revoked }
        if transaction.effectiveStart > date { return .notStarted }
        if let supersededAt = flat.supersededAt(position), supersededAt.map({ $0 <= date }) ?? true { return .superseded(at: supersededAt) }
        guard let expiresAt = end else { return .givesAccess(until: nil) }
        if expiresAt > date { return .givesAccess(until: expiresAt) }
        if chainEnd == expiresAt, let graceUntil = flat.renewal(of: position)?.gracePeriodExpiresAt, graceUntil > date {
            return .inGracePeriod(graceUntil: graceUntil)
        }
        return .expired
    }

    /// For `status --json`'s `subscriptions`: whether the transaction at `position` gives
    /// access, and whether in grace, where `chainEnd` is the latest end of its subscription.
    package func access(_ position: Int, chainEnd: Date, in flat: FlatProfile) -> (givesAccess: Bool, inGrace: Bool) {
        let verdict = verdict(position, end: flat.end(of: position), chainEnd: chainEnd, in: flat)
        if case .inGracePeriod = verdict { return (true, true) }
        return (verdict.givesAccess, false)
    }

    func includes(_ transaction: CheckTransaction) -> Bool {
        switch environment {
        case .any: return true
        case .production: return !transaction.isSandbox
        case .sandbox: return transaction.isSandbox
        }
    }
}

/// The known transactions' positions by what they unlock: a product, or for a manual grant
/// its entitlement (`TransactionIndex`), each list in file order.
private struct UnlockIndex {
    /// Positions, grouped by key: products by number, then granted entitlements.
    var order: [Int32] = []
    var starts: [Int]

    init(_ flat: FlatProfile) {
        let productCount = flat.products.count
        var keys = [Int32](repeating: -1, count: flat.transactions.count)
        for (position, transaction) in flat.transactions.enumerated() {
            if transaction.isManualGrant {
                guard let entitlement = transaction.entitlement,
                      let number = flat.grantedEntitlements.find(UnsafeBufferPointer(rebasing: flat.bytes[entitlement]), in: flat.bytes) else { continue }
                keys[position] = Int32(productCount) + number
            } else if flat.product[position] >= 0 {
                keys[position] = flat.product[position]
            }
        }
        let keyCount = productCount + flat.grantedEntitlements.count
        starts = [Int](repeating: 0, count: keyCount + 1)
        for key in keys where key >= 0 { starts[Int(key) + 1] += 1 }
        for key in 0..<keyCount { starts[key + 1] += starts[key] }
        order = [Int32](repeating: 0, count: starts[keyCount])
        var fill = starts
        for (position, key) in keys.enumerated() where key >= 0 {
            order[fill[Int(key)]] = Int32(position)
            fill[Int(key)] += 1
        }
    }

    /// The positions of the transactions that unlock `entitlement`, in file order.
    func positions(unlocking entitlement: String, configuration: ProductConfiguration, _ flat: FlatProfile) -> [Int] {
        var keys: [Int] = []
        for product in configuration.entitlement(entitlement)?.products ?? [] {
            var text = product
            let number = text.withUTF8 { flat.products.find($0, in: flat.bytes) }
            if let number, !keys.contains(Int(number)) { keys.append(Int(number)) }
        }
        var text = entitlement
        if let number = text.withUTF8({ flat.grantedEntitlements.find($0, in: flat.bytes) }) { keys.append(flat.products.count + Int(number)) }
        var result: [Int] = []
        for key in keys { result += order[starts[key]..<starts[key + 1]].lazy.map { Int($0) } }
        if keys.count > 1 { result.sort() }
        return result
    }
}
