import FoundationEssentials
import EntitlementModel

/// What `grant` was asked to do, after parsing and before touching the store.
package struct GrantRequest: Equatable, Sendable {
    /// How the grant's end is given.
    package enum Term: Equatable, Sendable {
        case duration(GrantDuration)
        case until(Date)
        case lifetime
    }

    package var userID: String
    package var entitlement: String
    package var term: Term
    package var startsAt: Date?
    package var reason: String?
    package var actor: String
    package var idempotencyKey: String?

    package init(userID: String, entitlement: String, term: Term, startsAt: Date? = nil, reason: String? = nil,
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
package struct GrantOutcome: Equatable, Sendable {
    package var profile: Profile
    /// The new grant, or the existing one an idempotency key matched.
    package var transaction: Transaction
    package var changed: Bool
    package var createdProfile: Bool
    /// Set when a --duration grant was chained after an active or scheduled grant.
    package var extendsTransactionID: String?
}
