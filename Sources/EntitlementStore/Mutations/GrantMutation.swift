import FoundationEssentials
import EntitlementModel
import EntitlementRules

/// `grant USER ENTITLEMENT`: one manual grant read, planned (`GrantPlanner`) and written
/// under the lock (`EntitlementStore.mutate`); the command line only presents the outcome.
package struct GrantMutation: Sendable {
    /// The grant, its `userID` the customer's.
    package var request: GrantRequest
    package var now: Date
    /// The id of the new grant's transaction (`manual-` and a new id).
    package var transactionID: String

    package init(request: GrantRequest, now: Date, transactionID: String) {
        self.request = request
        self.now = now
        self.transactionID = transactionID
    }

    /// What the grant did, for the command line to present.
    package struct Outcome: Sendable {
        package var grant: GrantOutcome
        /// The entitlement's access level after the grant.
        package var level: AccessLevel
        /// For a grant that made a new customer: an existing id close to it (a likely typo).
        package var nearUserID: String?
        /// Index warnings of the save (`saveProfile`).
        package var warnings: [String]
    }

    /// An entitlement the configuration does not name is refused before anything is read.
    package static func requireConfigured(_ entitlement: String, in configuration: ProductConfiguration,
                                          store: EntitlementStore) throws(EntitlementError) {
        guard configuration.entitlement(entitlement) == nil else { return }
        throw .unknownEntitlement(UnknownEntitlement(entitlement, known: configuration.entitlementIDs, configPath: store.configPath))
    }

    /// Grants (or, with `dryRun`, plans without the lock and writes nothing).
    package func run(in store: EntitlementStore, engine: StatusEngine, dryRun: Bool) throws(EntitlementError) -> Outcome {
        let request = self.request, now = self.now, transactionID = self.transactionID
        let profileID = ProfileIdentity.derived(for: request.userID)
        let change = ChangeDescription(summary: ChangeSummary.grant(request), actor: request.actor)
        let (grant, warnings) = try store.mutate(change, dryRun: dryRun) { () throws(EntitlementError) -> MutationPlan<GrantOutcome> in
            let existing = try store.loadProfile(userID: request.userID)
            let outcome: GrantOutcome
            do throws(GrantError) {
                outcome = try GrantPlanner.apply(request, to: existing, now: now, newTransactionID: transactionID, newProfileID: profileID)
            } catch {
                throw .grant(error)
            }
            return MutationPlan(outcome: outcome, profiles: outcome.changed ? [outcome.profile] : [])
        }
        let level = engine.evaluate(request.entitlement, for: grant.profile, at: now).accessLevel
        let near = grant.createdProfile && grant.changed ? store.nearUserID(to: request.userID) : nil
        return Outcome(grant: grant, level: level, nearUserID: near, warnings: warnings)
    }
}
