import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// `restore USER ENTITLEMENT`: a revocation made by `revoke` undone, read, planned
/// (`RestorePlanner`) and written under the lock; the command line presents the outcome.
package struct RestoreMutation: Sendable {
    package var userID: String
    package var request: RestoreRequest
    package var now: Date

    package init(userID: String, request: RestoreRequest, now: Date) {
        self.userID = userID
        self.request = request
        self.now = now
    }

    /// What the restore did (or would do), for the command line to present.
    package struct Outcome: Sendable {
        package var profile: Profile
        /// The transactions restored; empty when there was nothing to restore (nothing written).
        package var restored: [String]
        package var level: AccessLevel
        package var warnings: [String]
    }

    /// Restores (with `dryRun`: plans without the lock, writes nothing).
    package func run(in store: EntitlementStore, engine: StatusEngine, dryRun: Bool) throws(EntitlementError) -> Outcome {
        let change = ChangeDescription(summary: ChangeSummary.restore(request, userID: userID), actor: request.actor)
        let (planned, warnings) = try store.mutate(change, dryRun: dryRun) { () throws(EntitlementError) -> MutationPlan<(Profile, [String])> in
            guard let profile = try store.loadProfile(userID: userID) else { throw .unknownUser(userID) }
            try store.requireKnown(request.entitlement, in: profile, engine: engine)
            let (changed, restored) = try RestorePlanner.apply(request, to: profile, engine: engine, now: now)
            return MutationPlan(outcome: (changed, restored), profiles: restored.isEmpty ? [] : [changed])
        }
        let (profile, restored) = planned
        return Outcome(profile: profile, restored: restored, level: engine.evaluate(request.entitlement, for: profile, at: now).accessLevel,
                       warnings: warnings)
    }
}
