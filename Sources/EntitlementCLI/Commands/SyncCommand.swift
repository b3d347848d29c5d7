import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `entitlement sync`: exchange changes with the team store's remote (`origin`).
struct SyncCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Team store: fetch, merge what others changed, and push local commits.",
        discussion: """
            Merges through git, so profiles and config.json merge by meaning (docs/team-store.md).
            What arrives is checked before anything is checked out: only store files, readable,
            and no customers removed unless --allow-deletions. A push that loses a race fetches,
            merges and retries, up to 5 times. A remote that cannot be reached, or does not answer
            within --timeout, is exit 6; local commits are kept for the next sync. --pull-only
            never pushes (read replicas for scripts and CI). The merge commit's author is the actor.
            """,
        options: [
            pullOnlyFlag, allowDeletionsFlag, timeoutOption,
            CommonOptions.actor, CommonOptions.store, CommonOptions.lockTimeout, CommonOptions.json,
        ],
        examples: ["entitlement sync", "entitlement sync --pull-only --store /srv/entitlements   # from cron"])

    static let pullOnlyFlag = Flag("pull-only", help: "Fetch and merge only; never push (for read replicas).")
    static let allowDeletionsFlag = Flag("allow-deletions", help: "Merge even when what arrives removes customers' profiles.")
    static let timeoutOption = Option<Double>.seconds("timeout", help: "Give up on a fetch or push that takes longer (exit 6).")
        .withDefault(GitSync.defaultTimeout, shown: formatSeconds(GitSync.defaultTimeout))

    var pullOnly: Bool
    var allowDeletions: Bool
    var timeout: Double
    var actor: String?
    var store: String?
    var lockTimeout: Double?
    var json: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        pullOnly = parsed.flag(Self.pullOnlyFlag)
        allowDeletions = parsed.flag(Self.allowDeletionsFlag)
        timeout = try parsed.value(Self.timeoutOption)
        guard timeout > 0 else { throw .usage("--timeout must be more than 0 seconds.", command: Self.spec.name) }
        actor = try parsed.value(CommonOptions.actor)
        store = try parsed.value(CommonOptions.store)
        lockTimeout = try parsed.given(CommonOptions.lockTimeout)
        json = parsed.flag(CommonOptions.json)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let lockWait = try CommonOptions.lockTimeout.resolve(given: lockTimeout, environment: context.environment, command: Self.spec.name)
        let store = context.store(flag: self.store, lockTimeout: lockWait)
        try store.requireExists()
        guard let repository = store.gitRepository(environment: context.environment) else {
            throw .usage("\(store.root) is a plain store, not a team store.", hint: "Make it one with 'entitlement init --git --store \(store.root)'; see docs/team-store.md.", command: Self.spec.name)
        }
        let options = MutationOptions(store: self.store, actor: actor)
        var sync = GitSync(store: store, repository: repository, pullOnly: pullOnly)
        sync.allowDeletions = allowDeletions
        sync.timeout = timeout
        sync.now = context.now
        sync.actor = try options.resolvedActor(context, store: store)
        let report = try sync.run()
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("store", .string(store.root)), ("received_commits", .int(report.received)), ("sent_commits", .int(report.sent)),
                ("attempts", .int(report.attempts)), ("pull_only", .bool(pullOnly)),
                ("removed_profiles", .array(report.removedProfiles.map { .string($0) })),
                ("review", .array(report.reviews.map(\.json))),
            ]))))
        } else {
            context.stdout.write("Synced \(Terminal.escape(store.root)) with origin: received \(report.received) commit\(report.received == 1 ? "" : "s"), sent \(report.sent).\n")
            // Per customer: what the merge decided that leaves someone with less than they meant.
            for review in report.reviews.sorted(by: { ($0.customer, $0.entitlement) < ($1.customer, $1.entitlement) }) {
                context.stdout.write(MergeReviewLog.line(review))
            }
            if !report.removedProfiles.isEmpty {
                let count = report.removedProfiles.count
                context.stdout.write("Removed by what arrived (--allow-deletions): \(count) customer profile\(count == 1 ? "" : "s"): "
                    + report.removedProfiles.prefix(10).map(Terminal.escape).joined(separator: ", ") + (count > 10 ? ", …" : "") + "\n")
            }
        }
        return .success
    }
}
