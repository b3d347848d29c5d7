import FoundationEssentials

/// Options that grant, revoke and import share: where, who, and how long to wait.
struct MutationOptions: Equatable, Sendable {
    var store: String?
    var actor: String?
    var lockTimeout: Double?
    var dryRun: Bool
    var json: Bool

    init(_ parsed: ParsedArguments, command: String) throws(EntitlementError) {
        store = parsed.value("store")
        actor = try OptionValues.text(parsed, "actor", command: command)
        lockTimeout = try parsed.value("lock-timeout").map { (text) throws(EntitlementError) in
            try OptionValues.seconds(text, source: "value for --lock-timeout", command: command)
        }
        dryRun = parsed.flag("dry-run")
        json = parsed.flag("json")
    }

    /// The store, with the lock timeout from the flag or `$ENTITLEMENT_LOCK_TIMEOUT`;
    /// a team store (one with `.git`) commits every write.
    func store(_ context: Context, command: String) throws(EntitlementError) -> EntitlementStore {
        let timeout = try OptionValues.lockTimeout(flag: lockTimeout, environment: context.environment, command: command)
        return context.store(flag: store, lockTimeout: timeout).withTeamRecorder(environment: context.environment)
    }

    /// `--actor`, else `$ENTITLEMENT_ACTOR`, else (in a team store) git's `user.name` and
    /// `user.email`, else the login name.
    func resolvedActor(_ context: Context, store: EntitlementStore) throws(EntitlementError) -> String {
        if let actor { return actor }
        if let actor = context.environment["ENTITLEMENT_ACTOR"], !actor.trimmingWhitespace.isEmpty { return actor }
        if let repository = store.gitRepository(environment: context.environment), let identity = try repository.userIdentity() {
            return identity.description
        }
        return context.loginName() ?? "unknown"
    }

    static let specs = [CommonOptions.store, CommonOptions.reason, CommonOptions.actor, CommonOptions.dryRun, CommonOptions.lockTimeout, CommonOptions.json]
}
