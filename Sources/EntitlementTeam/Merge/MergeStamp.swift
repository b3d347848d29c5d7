import FoundationEssentials
import EntitlementModel

/// When, and for whom, a merge is made: what the merge itself records (the voiding of a
/// duplicate grant) is dated and attributed with it.
///
/// The time is, unless given, the moment both sides were known: the latest change either
/// side recorded (`knownAt`). It is never later than the merge itself, so from the moment
/// the merge is known at any time T the voided duplicate gives nothing; and it is the same
/// wherever and whenever the merge runs, so clones that merge the same pair write the same
/// bytes (and tests need no clock).
package struct MergeStamp: Sendable {
    /// Nil: derive it from the sides (`knownAt`).
    package var at: Date?
    /// Asked only when the merge records something: finding the person may run git.
    package var actor: @Sendable () -> String

    /// Set by `sync` for the merge driver: the identity of its merge commit.
    package static let actorVariable = "ENTITLEMENT_MERGE_ACTOR"

    package init(at: Date?, actor: @escaping @Sendable () -> String) {
        self.at = at
        self.actor = actor
    }

    package init(at: Date?, actor: String) {
        self.init(at: at) { actor }
    }

    /// The merge's time for these sides: `at`, else `knownAt`.
    package func time(ours: Profile, theirs: Profile) -> Date { at ?? Self.knownAt(ours, theirs) }

    /// The latest instant either side recorded something at: a profile's creation, a
    /// grant or purchase, a revocation, a restore.
    static func knownAt(_ profiles: Profile...) -> Date {
        var latest = Date.distantPast
        for profile in profiles {
            if let created = profile.createdAt { latest = max(latest, created) }
            for transaction in profile.transactions {
                latest = max(latest, transaction.grantedAt ?? transaction.purchasedAt)
                if let revoked = transaction.revokedAt { latest = max(latest, revoked) }
                guard transaction.holdsRestoredRevocations else { continue }
                for undone in transaction.restoredRevocations { latest = max(latest, undone.restoredAt) }
            }
        }
        return latest
    }
}
