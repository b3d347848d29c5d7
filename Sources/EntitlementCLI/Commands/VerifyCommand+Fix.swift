import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `verify --fix`: the repairs verify can make without a person's judgement (docs/verify.md).
extension VerifyCommand {
    /// Restores the profile ids an older merge dropped (`ProfileIDRepair`); in a team store the
    /// change is one commit by the actor.
    func restoreProfileIDs(_ context: Context) throws(EntitlementError) -> [ProfileIDRepair.Restored] {
        let timeout = try CommonOptions.lockTimeout.resolve(given: lockTimeout, environment: context.environment, command: Self.spec.name)
        let store = context.store(flag: self.store, lockTimeout: timeout).withTeamRecorder(environment: context.environment)
        try store.requireExists()
        let actor = try MutationOptions(store: self.store, actor: actor).resolvedActor(context, store: store)
        return try ProfileIDRepair.run(store, change: ChangeDescription(summary: "verify --fix: restore profile ids an older merge dropped", actor: actor))
    }

    /// `fixed: CUSTOMER: profile id ID restored as an alias (index/profile-id/…)`.
    static func text(_ restored: ProfileIDRepair.Restored) -> String {
        "fixed: \(Terminal.escape(restored.customerUserID)): profile id \(Terminal.escape(restored.profileID)) restored as an alias (\(Terminal.escape(restored.indexEntry)))"
    }

    static func fixedObject(_ restored: ProfileIDRepair.Restored) -> JSONObject {
        JSONObject([
            ("customer_user_id", .string(restored.customerUserID)),
            ("profile_id", .string(restored.profileID)),
            ("index_entry", .string(restored.indexEntry)),
            ("action", .string("alias_restored")),
        ])
    }
}
