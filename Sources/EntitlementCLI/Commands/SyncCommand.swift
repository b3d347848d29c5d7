import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementTeam

/// `entitlement sync`: exchange changes with the team store's remote (`origin`).
package struct SyncCommand: RunnableCommand, Equatable {
    package static let spec = CommandSpec(
        name: "sync",
        abstract: "Team store: fetch, merge what others changed, and push local commits.",
        discussion: """
            Merges through git, so profiles and config.json merge by meaning (docs/team-store.md).
            A push that loses a race fetches, merges and retries, up to 5 times. A remote that cannot
            be reached is exit 6; local commits are kept for the next sync. --pull-only never pushes
            (read replicas for scripts and CI).
            """,
        options: [
            pullOnlyFlag,
            CommonOptions.store, CommonOptions.lockTimeout, CommonOptions.json,
        ],
        examples: ["entitlement sync", "entitlement sync --pull-only --store /srv/entitlements   # from cron"])

    static let pullOnlyFlag = Flag("pull-only", help: "Fetch and merge only; never push (for read replicas).")

    package var pullOnly: Bool
    package var store: String?
    package var lockTimeout: Double?
    package var json: Bool

    package init(_ parsed: ParsedArguments) throws(EntitlementError) {
        pullOnly = parsed.flag(Self.pullOnlyFlag)
        store = try parsed.value(CommonOptions.store)
        lockTimeout = try parsed.given(CommonOptions.lockTimeout)
        json = parsed.flag(CommonOptions.json)
    }

    package func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let timeout = try CommonOptions.lockTimeout.resolve(given: lockTimeout, environment: context.environment, command: Self.spec.name)
        let store = context.store(flag: self.store, lockTimeout: timeout)
        try store.requireExists()
        guard let repository = store.gitRepository(environment: context.environment) else {
            throw .usage("\(store.root) is a plain store, not a team store.", hint: "Make it one with 'entitlement init --git --store \(store.root)'; see docs/team-store.md.", command: Self.spec.name)
        }
        let report = try GitSync(store: store, repository: repository, pullOnly: pullOnly).run()
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("store", .string(store.root)), ("received_commits", .int(report.received)), ("sent_commits", .int(report.sent)),
                ("attempts", .int(report.attempts)), ("pull_only", .bool(pullOnly)),
            ]))))
        } else {
            context.stdout.write("Synced \(Terminal.escape(store.root)) with origin: received \(report.received) commit\(report.received == 1 ? "" : "s"), sent \(report.sent).\n")
        }
        return .success
    }
}
