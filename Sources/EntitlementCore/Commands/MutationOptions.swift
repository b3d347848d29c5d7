import FoundationEssentials

/// Options that grant, revoke and import share: where, who, and how long to wait.
struct MutationOptions: Equatable, Sendable {
    var store: String?
    var actor: String?
    var lockTimeout: String?
    var dryRun: Bool
    var json: Bool

    init(_ parsed: ParsedArguments, command: String) throws(EntitlementError) {
        store = parsed.value("store")
        actor = try OptionValues.text(parsed, "actor", command: command)
        lockTimeout = parsed.value("lock-timeout")
        dryRun = parsed.flag("dry-run")
        json = parsed.flag("json")
        if let lockTimeout, Double(lockTimeout).map({ $0 < 0 || !$0.isFinite }) ?? true {
            throw .usage("invalid value for --lock-timeout: '\(Terminal.escape(lockTimeout))'; expected seconds, 0 or more.", command: command)
        }
    }

    /// The store, with the lock timeout from the flag or `$ENTITLEMENT_LOCK_TIMEOUT`.
    func store(_ context: Context, command: String) throws(EntitlementError) -> EntitlementStore {
        var parsed = ParsedArguments()
        if let lockTimeout { parsed.values["lock-timeout"] = [lockTimeout] }
        let timeout = try OptionValues.lockTimeout(parsed, environment: context.environment, command: command)
        return context.store(flag: store, lockTimeout: timeout)
    }

    /// `--actor`, else `$ENTITLEMENT_ACTOR`, else the login name.
    func resolvedActor(_ context: Context) -> String {
        if let actor { return actor }
        if let actor = context.environment["ENTITLEMENT_ACTOR"], !actor.trimmingWhitespace.isEmpty { return actor }
        return context.loginName() ?? "unknown"
    }

    static let specs = [CommonOptions.store, CommonOptions.reason, CommonOptions.actor, CommonOptions.dryRun, CommonOptions.lockTimeout, CommonOptions.json]
}
