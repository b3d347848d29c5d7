import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// The status rules: a pure function of (profile, product configuration, time).
///
/// It reads no clock and no files. docs/status-rules.md describes every rule here.
///
/// Its twins, for speed, live beside it in this module and follow it rule for rule:
/// `OneEntitlementEngine` (FastPath/: one entitlement from a profile's bytes, for `check`),
/// `FlatStatusEngine` (FastPath/: every entitlement over flat transactions, for
/// `status --json`) and `ProfilePrefilter` (Queries/: which files `find` need not decode).
/// A change to a rule here changes them too; `FastCheckTests` (with `FastCheckStoreTests` and
/// `FastCheckLineTests`), `FlatStatusTests` and `FindQueryTests` compare their answers with this engine's.
package struct StatusEngine: Sendable {
    package var configuration: ProductConfiguration
    package var environment: EnvironmentFilter
    /// Counts the engine's steps for the counted-work tests; nil otherwise.
    package var counter: WorkCounter?

    package init(configuration: ProductConfiguration, environment: EnvironmentFilter = .any) {
        self.configuration = configuration
        self.environment = environment
    }

    /// Entitlements to show for `profile`: the configured ones, then any that only
    /// manual grants name (for example after the configuration dropped one).
    package func entitlementIDs(for profile: Profile) -> [String] {
        var ids = configuration.entitlementIDs
        var seen = Set(ids)
        for transaction in profile.transactions where transaction.isManualGrant {
            if let id = transaction.entitlement, seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// Every entitlement's access level at `date`.
    package func accessLevels(for profile: Profile, at date: Date) -> [AccessLevel] {
        evaluations(for: profile, at: date).map(\.accessLevel)
    }

    /// Every entitlement's evaluation at `date` (`entitlementIDs(for:)` order), over one indexed basis.
    package func evaluations(for profile: Profile, at date: Date) -> [Evaluation] {
        evaluations(of: entitlementIDs(for: profile), for: profile, at: date)
    }

    /// The evaluations of `ids` at `date`, over one basis: indexed when there are several,
    /// so each entitlement visits only its own transactions.
    package func evaluations(of ids: [String], for profile: Profile, at date: Date) -> [Evaluation] {
        let basis = EvaluationBasis(profile, at: date, indexed: ids.count > 1, counter: counter)
        return ids.map { evaluate($0, in: basis) }
    }

    /// True when `transaction` counts towards `entitlementID`.
    package func transaction(_ transaction: Transaction, unlocks entitlementID: String) -> Bool {
        if transaction.isManualGrant { return transaction.entitlement == entitlementID }
        guard let productID = transaction.productID else { return false }
        return configuration.product(productID, unlocks: entitlementID)
    }

    /// The access level of `entitlementID` at `date`, with each transaction's verdict.
    ///
    /// Only what was recorded by `date` counts (`Profile.asKnown(at:)`): the answer at T is
    /// the one the tool would have given at T.
    package func evaluate(_ entitlementID: String, for fullProfile: Profile, at date: Date) -> Evaluation {
        evaluate(entitlementID, in: EvaluationBasis(fullProfile, at: date, counter: counter))
    }

    /// `evaluate(_:for:at:)` over a basis shared by the evaluations of every entitlement.
    ///
    /// O(n log n) in the profile's transactions, wherever `date` falls in a renewal chain;
    /// `EngineWorkTests` count the steps. The byte-level twin is
    /// `OneEntitlementEngine`; `FastCheckTests` keep the two equal.
    package func evaluate(_ entitlementID: String, in basis: EvaluationBasis) -> Evaluation {
        let profile = basis.profile, date = basis.date
        // The entitlement's products, looked up once rather than for every transaction.
        let products = configuration.entitlement(entitlementID)?.products ?? []
        let candidates: [Transaction]
        let ignored: [IgnoredRecord]
        if let index = basis.index {
            candidates = index.transactions(unlocking: entitlementID, products: products, counter: counter).map { profile.transactions[$0] }
            ignored = index.ignored(unlocking: entitlementID, products: products, counter: counter).map { basis.ignored[$0] }
        } else {
            func unlocks(_ transaction: Transaction) -> Bool {
                if transaction.isManualGrant { return transaction.entitlement == entitlementID }
                guard let productID = transaction.productID else { return false }
                return products.contains(productID)
            }
            counter.add(profile.transactions.count)
            candidates = profile.transactions.filter(unlocks)
            ignored = Self.records(basis.ignored, about: basis.fullProfile, unlocking: unlocks, counter: counter)
        }
        guard !candidates.isEmpty else {
            return Evaluation(accessLevel: AccessLevel(id: entitlementID, state: .never), considerations: [],
                              decision: ignored.isEmpty ? "no transaction unlocks this entitlement" : "nothing that unlocks this entitlement was recorded by then",
                              ignored: ignored)
        }
        let supersessions = basis.supersessions
        counter.add(3 * candidates.count)
        // Each candidate's supersession, looked up once (a lookup hashes two strings).
        let candidateSupersessions = candidates.map { basis.supersession(of: $0) }
        // The latest access end of each subscription: only that transaction can be in grace.
        var chainEnd: [String: Date] = [:]
        for (transaction, supersession) in zip(candidates, candidateSupersessions) {
            if let end = Supersession.end(of: transaction, supersession) {
                Self.raise(&chainEnd[transaction.originalTransactionID, default: end], to: end)
            }
        }
        var considerations = zip(candidates, candidateSupersessions).map { transaction, supersession in
            Consideration(transaction: transaction, verdict: verdict(transaction, in: profile, at: date, chainEnd: chainEnd,
                                                                     supersession: supersession), isDecisive: false)
        }
        let (index, state, decision) = decide(considerations)
        guard let index else {
            return Evaluation(accessLevel: AccessLevel(id: entitlementID, state: .never), considerations: considerations, decision: decision, ignored: ignored)
        }
        considerations[index].isDecisive = true
        let level = accessLevel(entitlementID, state: state, decisive: considerations[index], candidates: candidates, profile: profile, at: date,
                                supersessions: supersessions)
        return Evaluation(accessLevel: level, considerations: considerations, decision: decision, ignored: ignored)
    }

    /// The records about a transaction of `profile` that passes `unlocks` (by its id or its
    /// original id): one pass over the profile, then one lookup per record.
    private static func records(_ records: [IgnoredRecord], about profile: Profile, unlocking unlocks: (Transaction) -> Bool,
                                counter: WorkCounter?) -> [IgnoredRecord] {
        guard !records.isEmpty else { return [] }
        var subjects: Set<String> = []
        for transaction in profile.transactions where unlocks(transaction) {
            subjects.insert(transaction.transactionID)
            subjects.insert(transaction.originalTransactionID)
        }
        counter.add(profile.transactions.count + records.count)
        return records.filter { subjects.contains($0.subject) }
    }

    /// Keeps the later of `value` and `date` in `value` (one dictionary access through `default:`).
    @inline(__always)
    private static func raise(_ value: inout Date, to date: Date) {
        if date > value { value = date }
    }

    package func verdict(_ transaction: Transaction, in profile: Profile, at date: Date, chainEnd: [String: Date],
                 supersession: Supersession? = nil) -> TransactionVerdict {
        if transaction.type.is(.consumablePurchase) { return .consumable }
        guard environment.includes(transaction.environment) else { return .excludedEnvironment(transaction.environment) }
        if let revokedAt = transaction.revocationInEffect(at: date) { return .revoked(at: revokedAt) }
        if transaction.effectiveStart > date { return .notStarted(startsAt: transaction.effectiveStart) }
        if let supersession, supersession.at.map({ $0 <= date }) ?? true {
            return .superseded(by: supersession.by, at: supersession.at)
        }
        guard let expiresAt = Supersession.end(of: transaction, supersession) else { return .givesAccess(until: nil) }
        if expiresAt > date { return .givesAccess(until: expiresAt) }
        // Only the chain's last period can be in grace: checked first, it spares most renewal lookups.
        if chainEnd[transaction.originalTransactionID] == expiresAt,
           let graceUntil = profile.renewal(for: transaction)?.gracePeriodExpiresAt, graceUntil > date {
            return .inGracePeriod(expiredAt: expiresAt, graceUntil: graceUntil)
        }
        return .expired(at: expiresAt)
    }

    /// Picks the decisive transaction and the state.
    func decide(_ considerations: [Consideration]) -> (Int?, AccessState, String) {
        let indices = considerations.indices
        counter.add(3 * considerations.count)
        let granting = indices.filter { considerations[$0].verdict.givesAccess }
        if let winner = granting.max(by: { Self.accessOrder(considerations[$0], considerations[$1]) }) {
            let state: AccessState
            if case .inGracePeriod = considerations[winner].verdict { state = .gracePeriod } else { state = .active }
            let rule = granting.count == 1 ? "the only transaction that gives access"
                : "of \(granting.count) transactions that give access, lifetime wins, then the latest expiry"
            return (winner, state, rule)
        }
        let upcoming = indices.filter { if case .notStarted = considerations[$0].verdict { return true } else { return false } }
        if let next = upcoming.min(by: { considerations[$0].transaction.effectiveStart < considerations[$1].transaction.effectiveStart }) {
            return (next, .scheduled, "nothing gives access now; the earliest upcoming start is shown")
        }
        let ended = indices.filter {
            switch considerations[$0].verdict {
            case .revoked, .expired, .superseded: return true
            default: return false
            }
        }
        guard let last = ended.max(by: { Self.endedOrder(considerations[$0], considerations[$1]) }) else {
            return (nil, .never, "no transaction here can give access (consumables or excluded environment only)")
        }
        switch considerations[last].verdict {
        case .revoked:
            return (last, .revoked, "the most recent transaction that would give access was revoked")
        case .superseded:
            return (last, .expired, "the most recent transaction that gave access was superseded within its subscription")
        default:
            return (last, .expired, "the most recent transaction that gave access has expired")
        }
    }

    /// The order of two access ends, where no end (lifetime) is the latest; nil when they are equal.
    static func endOrder(_ a: Date?, _ b: Date?) -> Bool? {
        switch (a, b) {
        case (nil, .some): return false
        case (.some, nil): return true
        case (let x?, let y?) where x != y: return x < y
        default: return nil
        }
    }

    /// Orders granting transactions so the winner is the maximum: lifetime, then
    /// latest effective expiry, then latest start, then transaction id.
    static func accessOrder(_ a: Consideration, _ b: Consideration) -> Bool {
        func end(_ c: Consideration) -> Date? {
            switch c.verdict {
            case .inGracePeriod(_, let graceUntil): return graceUntil
            case .givesAccess(let until): return until
            default: return nil
            }
        }
        return endOrder(end(a), end(b)) ?? recencyOrder(a.transaction, b.transaction)
    }

    /// Orders ended transactions by when their access would end: a superseded one ends
    /// where it was superseded, the others by `recencyOrder`.
    static func endedOrder(_ a: Consideration, _ b: Consideration) -> Bool {
        // The end as if the transaction expired where it was superseded; the transaction
        // itself is not changed (a changed copy would copy its fields, per comparison).
        func end(_ c: Consideration) -> Date? {
            guard case .superseded(_, let at) = c.verdict else { return c.transaction.expiresAt }
            return at ?? c.transaction.effectiveStart
        }
        return recencyOrder(a.transaction, ending: end(a), b.transaction, ending: end(b))
    }

    /// Orders ended transactions by when their access would end (nil is never), then start, then id.
    package static func recencyOrder(_ a: Transaction, _ b: Transaction) -> Bool {
        recencyOrder(a, ending: a.expiresAt, b, ending: b.expiresAt)
    }

    /// `recencyOrder(_:_:)`, with each transaction's expiry given.
    static func recencyOrder(_ a: Transaction, ending aEnd: Date?, _ b: Transaction, ending bEnd: Date?) -> Bool {
        switch (aEnd, bEnd) {
        case (nil, .some): return false
        case (.some, nil): return true
        case (let x?, let y?) where x != y: return x < y
        default:
            if a.effectiveStart != b.effectiveStart { return a.effectiveStart < b.effectiveStart }
            return a.transactionID < b.transactionID
        }
    }
}
