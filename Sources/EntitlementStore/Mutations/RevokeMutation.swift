import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// `revoke USER ENTITLEMENT`: manual grants (and, asked, store purchases) revoked, read,
/// planned (`RevokePlanner`) and written under the lock; the command line presents the outcome.
package struct RevokeMutation: Sendable {
    package var userID: String
    package var request: RevokeRequest
    package var now: Date

    package init(userID: String, request: RevokeRequest, now: Date) {
        self.userID = userID
        self.request = request
        self.now = now
    }

    /// What the revocation did (or would do), for the command line to present.
    package struct Outcome: Sendable {
        /// The profile as it was read, and as it is after.
        package var before: Profile
        package var profile: Profile
        /// The transactions revoked; empty when there was nothing to revoke (nothing written).
        package var revoked: [String]
        package var levelBefore: AccessLevel
        package var level: AccessLevel
        /// Other entitlements the revoked store products unlocked.
        package var alsoAffected: [String]
        package var warnings: [String]
    }

    /// Revokes (with `dryRun`: plans without the lock, writes nothing). `check` sees the ids
    /// planned under the lock and may refuse them (a plan that differs from one a person confirmed).
    package func run(in store: EntitlementStore, engine: StatusEngine, dryRun: Bool,
                     check: ([String]) throws(EntitlementError) -> Void = { _ in }) throws(EntitlementError) -> Outcome {
        let change = ChangeDescription(summary: ChangeSummary.revoke(request, userID: userID), actor: request.actor)
        let (planned, warnings) = try store.mutate(change, dryRun: dryRun) { () throws(EntitlementError) -> MutationPlan<(Profile, Profile, [String])> in
            guard let profile = try store.loadProfile(userID: userID) else { throw .unknownUser(userID) }
            try store.requireKnown(request.entitlement, in: profile, engine: engine)
            let (changed, revoked): (Profile, [String])
            do throws(RevokeError) {
                (changed, revoked) = try RevokePlanner.apply(request, to: profile, engine: engine, now: now)
            } catch {
                throw .revoke(error)
            }
            try check(revoked)
            return MutationPlan(outcome: (profile, changed, revoked), profiles: revoked.isEmpty ? [] : [changed])
        }
        let (before, profile, revoked) = planned
        return Outcome(before: before, profile: profile, revoked: revoked,
                       levelBefore: engine.evaluate(request.entitlement, for: before, at: now).accessLevel,
                       level: engine.evaluate(request.entitlement, for: profile, at: now).accessLevel,
                       alsoAffected: Self.alsoAffected(revoked, in: profile, engine: engine, entitlement: request.entitlement),
                       warnings: warnings)
    }

    /// A store product may unlock more than the entitlement named; the others it takes.
    static func alsoAffected(_ revoked: [String], in profile: Profile, engine: StatusEngine, entitlement: String) -> [String] {
        var others: [String] = []
        for id in revoked {
            guard let productID = profile.transaction(id: id)?.productID else { continue }
            for other in engine.configuration.entitlements(unlockedBy: productID) where other != entitlement && !others.contains(other) {
                others.append(other)
            }
        }
        return others
    }
}
