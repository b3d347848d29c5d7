import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// What one transaction means for one entitlement at one instant, and why.
package enum TransactionVerdict: Equatable, Sendable {
    /// Gives access; `until` is nil for lifetime.
    case givesAccess(until: Date?)
    /// Expired, but inside the subscription's billing grace period.
    case inGracePeriod(expiredAt: Date, graceUntil: Date)
    case notStarted(startsAt: Date)
    case revoked(at: Date)
    case expired(at: Date)
    /// Replaced by a later transaction of the same subscription (an upgrade or plan change);
    /// `by` and `at` are nil when the vendor said so but the replacing transaction is unknown.
    case superseded(by: String?, at: Date?)
    case consumable
    case excludedEnvironment(Environment)

    /// True for the verdicts that give access.
    package var givesAccess: Bool {
        switch self {
        case .givesAccess, .inGracePeriod: return true
        default: return false
        }
    }

    /// The rule that decided, in words, for `status --explain`.
    package var rule: String {
        switch self {
        case .givesAccess(nil): return "gives access, never expires"
        case .givesAccess(let until?): return "gives access until \(ISODate.format(until))"
        case .inGracePeriod(let expiredAt, let graceUntil):
            return "expired \(ISODate.format(expiredAt)), in billing grace period until \(ISODate.format(graceUntil))"
        case .notStarted(let startsAt): return "not started: starts \(ISODate.format(startsAt))"
        case .revoked(let at): return "revoked \(ISODate.format(at))"
        case .expired(let at): return "expired \(ISODate.format(at))"
        case .superseded(let by?, let at?): return "superseded by \(Terminal.escape(by)) at \(ISODate.format(at))"
        case .superseded: return "superseded (marked upgraded; the replacing transaction is not in the profile)"
        case .consumable: return "consumable: never gives access"
        case .excludedEnvironment(let environment): return "ignored: \(environment.rawValue) transaction excluded by --environment"
        }
    }
}

/// One transaction considered for an entitlement, for `--explain`.
package struct Consideration: Equatable, Sendable {
    package var transaction: Transaction
    package var verdict: TransactionVerdict
    /// True for the transaction that decided the access level.
    package var isDecisive: Bool
}

/// The access level of one entitlement, with the reasoning behind it.
package struct Evaluation: Equatable, Sendable {
    package var accessLevel: AccessLevel
    package var considerations: [Consideration]
    /// The rule that picked the decisive transaction, in words.
    package var decision: String
    /// Records of this entitlement left out because they were made after the evaluation time.
    package var ignored: [IgnoredRecord] = []

    package init(accessLevel: AccessLevel, considerations: [Consideration], decision: String, ignored: [IgnoredRecord] = []) {
        self.accessLevel = accessLevel
        self.considerations = considerations
        self.decision = decision
        self.ignored = ignored
    }
}
