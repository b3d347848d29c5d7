import EntitlementModel
import EntitlementRules

/// What one planned mutation writes and what it tells its caller: the profiles to save (one
/// journal, all or nothing), other store files in the same journal, and the outcome.
/// No profiles: nothing is written (a replay, nothing to revoke, a dry run).
struct MutationPlan<Outcome> {
    var outcome: Outcome
    var profiles: [Profile] = []
    var alongside: [EntitlementStore.FileChange] = []
}

extension EntitlementStore {
    /// The one write of `grant`, `revoke`, `restore` and `transfer`: `plan` reads and plans
    /// under the writer lock (`withWriteLock`, so a team store's `ChangeRecorder` makes it
    /// one commit described by `change`), then its profiles are saved in one journal.
    /// A dry run plans the same way, without the lock, and writes nothing.
    /// Returns the outcome and the index warnings of the save (`saveProfile`).
    func mutate<Outcome>(_ change: ChangeDescription, dryRun: Bool,
                         _ plan: () throws(EntitlementError) -> MutationPlan<Outcome>) throws(EntitlementError) -> (outcome: Outcome, warnings: [String]) {
        if dryRun { return (try plan().outcome, []) }
        return try withWriteLock(change) { () throws(EntitlementError) -> (outcome: Outcome, warnings: [String]) in
            let planned = try plan()
            guard !planned.profiles.isEmpty else { return (planned.outcome, []) }
            return (planned.outcome, try save(configuration: nil, profiles: planned.profiles, alongside: planned.alongside))
        }
    }

    /// A typo must not pass as "nothing to revoke" or "nothing to restore": the entitlement
    /// must be configured or named by a manual grant in this profile.
    func requireKnown(_ entitlement: String, in profile: Profile, engine: StatusEngine) throws(EntitlementError) {
        let known = engine.entitlementIDs(for: profile)
        guard !known.contains(entitlement) else { return }
        throw .unknownEntitlement(UnknownEntitlement(entitlement, known: known, configPath: configPath))
    }
}
