import FoundationEssentials

/// What `grant` was asked to do, after parsing and before touching the store.
public struct GrantRequest: Equatable, Sendable {
    /// How the grant's end is given.
    public enum Term: Equatable, Sendable {
        case duration(GrantDuration)
        case until(Date)
        case lifetime
    }

    public var userID: String
    public var entitlement: String
    public var term: Term
    public var startsAt: Date?
    public var reason: String?
    public var actor: String
    public var idempotencyKey: String?

    public init(userID: String, entitlement: String, term: Term, startsAt: Date? = nil, reason: String? = nil,
                actor: String, idempotencyKey: String? = nil) {
        self.userID = userID
        self.entitlement = entitlement
        self.term = term
        self.startsAt = startsAt
        self.reason = reason
        self.actor = actor
        self.idempotencyKey = idempotencyKey
    }
}

/// What a grant did (or, with --dry-run, would do).
public struct GrantOutcome: Equatable, Sendable {
    public var profile: Profile
    /// The new grant, or the existing one an idempotency key matched.
    public var transaction: Transaction
    public var changed: Bool
    public var createdProfile: Bool
    /// Set when a --duration grant was chained after an active or scheduled grant.
    public var extendsTransactionID: String?
}
