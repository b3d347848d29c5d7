import FoundationEssentials
import EntitlementJSON

extension OneEntitlementEngine {
    /// What one candidate means at the evaluation time (`TransactionVerdict`, without the ids it does not need).
    enum Verdict {
        case givesAccess(until: Date?)
        case inGracePeriod(graceUntil: Date)
        case notStarted, revoked, expired
        case superseded(at: Date?)
        case consumable, excluded

        var givesAccess: Bool {
            switch self {
            case .givesAccess, .inGracePeriod: return true
            default: return false
            }
        }
    }

    /// A candidate with its verdict and the end of its access (`Supersession.end`).
    struct Candidate {
        var index: Int
        var verdict: Verdict
        var end: Date?
        /// Superseded within its subscription (`Supersession.all`), and if so, when (nil: marked upgraded).
        var supersededAt: Date??
    }

    /// The access level of the entitlement in the profile `scanner` read, at `date`.
    package func accessLevel(_ scanner: inout CheckProfileScanner, bytes: UnsafeBufferPointer<UInt8>, at date: Date) -> AccessLevel {
        scanner.makeKnown(at: date, bytes)
        let known = scanner.transactions
        // The scanner's array, kept from file to file.
        var candidates: [Candidate] = []
        swap(&candidates, &scanner.candidates)
        candidates.removeAll(keepingCapacity: true)
        defer { swap(&candidates, &scanner.candidates) }
        for index in known.indices where unlocks(known[index], bytes) {
            let supersession = Self.supersession(of: index, in: known, bytes)
            candidates.append(Candidate(index: index, verdict: .consumable, end: Self.end(of: known[index], supersession), supersededAt: supersession))
        }
        guard !candidates.isEmpty else { return AccessLevel(id: entitlement, state: .never) }
        for position in candidates.indices {
            candidates[position].verdict = verdict(candidates[position], known: known, candidates: candidates, renewals: scanner.renewals, bytes, at: date)
        }
        guard let (decisive, state) = decide(candidates, known: known, bytes) else { return AccessLevel(id: entitlement, state: .never) }
        return level(state, decisive: candidates[decisive], known: known, candidates: candidates, renewals: scanner.renewals, bytes, at: date)
    }

    /// `StatusEngine.verdict`.
    private func verdict(_ candidate: Candidate, known: [CheckTransaction], candidates: [Candidate], renewals: [CheckRenewal],
                         _ bytes: UnsafeBufferPointer<UInt8>, at date: Date) -> Verdict {
        let transaction = known[candidate.index]
        if transaction.isConsumable { return .consumable }
        guard includes(transaction) else { return .excluded }
        if let revokedAt = transaction.revokedAt, revokedAt <= date { return .revoked }
        if transaction.effectiveStart > date { return .notStarted }
        if let supersededAt = candidate.supersededAt, supersededAt.map({ $0 <= date }) ?? true { return .superseded(at: supersededAt) }
        guard let expiresAt = candidate.end else { return .givesAccess(until: nil) }
        if expiresAt > date { return .givesAccess(until: expiresAt) }
        if let graceUntil = Self.renewal(of: transaction, renewals, bytes)?.gracePeriodExpiresAt, graceUntil > date,
           Self.chainEnd(transaction.original, known: known, candidates: candidates, bytes) == expiresAt {
            return .inGracePeriod(graceUntil: graceUntil)
        }
        return .expired
    }

    /// The latest access end among the candidates of one subscription.
    private static func chainEnd(_ original: Range<Int>, known: [CheckTransaction], candidates: [Candidate], _ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var latest: Date?
        for candidate in candidates where ByteCursor.same(bytes, known[candidate.index].original, original) {
            if let end = candidate.end, latest.map({ end > $0 }) ?? true { latest = end }
        }
        return latest
    }

    static func renewal(of transaction: CheckTransaction, _ renewals: [CheckRenewal], _ bytes: UnsafeBufferPointer<UInt8>) -> CheckRenewal? {
        renewals.first { ByteCursor.same(bytes, $0.key, transaction.original) }
    }

    /// `Supersession.all` for one transaction: the first later start of its subscription
    /// (ties by id) replaces it when that start is before its expiry; nil when not superseded.
    static func supersession(of index: Int, in known: [CheckTransaction], _ bytes: UnsafeBufferPointer<UInt8>) -> Date?? {
        let transaction = known[index]
        guard !transaction.isConsumable, !transaction.isManualGrant else { return nil }
        let start = transaction.effectiveStart
        var next: Int?
        for other in known.indices where !known[other].isConsumable && !known[other].isManualGrant
            && known[other].effectiveStart > start && ByteCursor.same(bytes, known[other].original, transaction.original) {
            guard let current = next else { next = other; continue }
            let a = known[other].effectiveStart, b = known[current].effectiveStart
            if a < b || (a == b && lessID(known[other].id, known[current].id, bytes)) { next = other }
        }
        if let next, known[next].effectiveStart < (transaction.expiresAt ?? .distantFuture) { return .some(known[next].effectiveStart) }
        if transaction.isUpgraded == true, next == nil { return .some(nil) }
        return nil
    }

    /// `Supersession.end`: the earlier of the expiry and the supersession.
    static func end(of transaction: CheckTransaction, _ supersession: Date??) -> Date? {
        guard let supersession else { return transaction.expiresAt }
        guard let at = supersession else { return transaction.effectiveStart }
        return min(at, transaction.expiresAt ?? at)
    }

    /// `String`'s `<` on ASCII: byte order, a prefix first.
    static func lessID(_ a: Range<Int>, _ b: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 0..<min(a.count, b.count) where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] {
            return bytes[a.lowerBound + offset] < bytes[b.lowerBound + offset]
        }
        return a.count < b.count
    }
}
