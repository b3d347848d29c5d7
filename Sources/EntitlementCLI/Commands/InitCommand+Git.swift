import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `init --git`: a new team store, or a plain store made one.
extension InitCommand {
    /// `init --git` on a plain store: every file kept and committed, the layout unchanged.
    func convertToTeamStore(_ store: EntitlementStore, context: Context) throws(EntitlementError) -> ExitCode {
        let actor = try teamActor(store, context: context)
        try store.withWriteLock { () throws(EntitlementError) in
            _ = try store.loadConfiguration()
            try GitSetup.initialize(store, actor: actor, summary: "make the store a team store", environment: context.environment)
        }
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([("store", .string(store.root)), ("converted", .bool(true))]))))
        } else {
            context.stdout.write("Made \(Terminal.escape(store.root)) a team store (git); every file is in its first commit.\n")
            if store.layout == .flat {
                context.stdout.write("For a large store, 'entitlement migrate --layout fanout' keeps commits fast.\n")
            }
        }
        return .success
    }

    /// The first commit's author: --actor, $ENTITLEMENT_ACTOR, git's user, the login name.
    func teamActor(_ store: EntitlementStore, context: Context) throws(EntitlementError) -> String {
        if let actor { return actor }
        if let name = CommonOptions.actor.spec.environmentVariable, let actor = context.environment[name], !actor.trimmingWhitespace.isEmpty {
            return actor
        }
        if GitRepository.isRepository(store.root), let identity = try GitRepository(root: store.root, environment: context.environment).userIdentity() {
            return identity.description
        }
        if let identity = try GitRepository(root: ".", environment: context.environment).globalIdentity() { return identity.description }
        return context.loginName() ?? "unknown"
    }
}
