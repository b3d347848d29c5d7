import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// Options that grant, revoke and import share: where, who, and how long to wait.
struct MutationOptions: Equatable, Sendable {
    var store: String?
    var actor: String?
    /// `--lock-timeout` as given; its environment variable and default are read at run time.
    var lockTimeout: Double?
    var dryRun: Bool
    var json: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = try parsed.value(CommonOptions.store)
        actor = try parsed.value(CommonOptions.actor)
        lockTimeout = try parsed.given(CommonOptions.lockTimeout)
        dryRun = parsed.flag(CommonOptions.dryRun)
        json = parsed.flag(CommonOptions.json)
    }

    /// Only where and who, for a command that shares the actor's resolution (`sync`).
    init(store: String?, actor: String?) {
        self.store = store
        self.actor = actor
        lockTimeout = nil
        dryRun = false
        json = false
    }

    /// The store, with the lock timeout from the flag, `$ENTITLEMENT_LOCK_TIMEOUT` or the default;
    /// a team store (one with `.git`) commits every locked write.
    func store(_ context: Context, command: String) throws(EntitlementError) -> EntitlementStore {
        let timeout = try CommonOptions.lockTimeout.resolve(given: lockTimeout, environment: context.environment, command: command)
        return context.store(flag: store, lockTimeout: timeout).withTeamRecorder(environment: context.environment)
    }

    /// `--actor`, else `$ENTITLEMENT_ACTOR`, else (in a team store) git's `user.name` and
    /// `user.email`, else the login name.
    func resolvedActor(_ context: Context, store: EntitlementStore) throws(EntitlementError) -> String {
        if let actor { return actor }
        if let name = CommonOptions.actor.spec.environmentVariable, let actor = context.environment[name], !actor.trimmingWhitespace.isEmpty {
            return actor
        }
        if let repository = store.gitRepository(environment: context.environment), let identity = try repository.userIdentity() {
            return identity.description
        }
        return context.loginName() ?? "unknown"
    }

    static let declarations: [any OptionDeclaration] = [
        CommonOptions.store, CommonOptions.reason, CommonOptions.actor, CommonOptions.dryRun, CommonOptions.lockTimeout, CommonOptions.json,
    ]
}
