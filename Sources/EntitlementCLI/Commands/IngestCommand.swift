import FoundationEssentials
import EntitlementIngest
import EntitlementModel
import EntitlementStore
import EntitlementTeam

/// `entitlement ingest`: applies spooled webhook events, saved bodies or JSON Lines.
struct IngestCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "ingest",
        abstract: "Apply vendor events: the webhook spool, a folder of saved bodies, or JSON Lines.",
        discussion: """
            Each event is applied once (deduplicated on the vendor's event id, also across the clones
            of a team store) and in the vendor's order: an older event never moves a customer's state
            backwards. Idempotent and resumable. Local input (--from, --stdin) has no HTTP headers: the
            operator vouches for it (App Store signatures are still checked). Exit 0 when every event
            was applied (or was a duplicate or older), 2 for bad input (malformed, unauthenticated,
            unsupported), 4 when an event could not be applied; the worst wins. --status shows the
            spool. --refresh then re-reads every RevenueCat customer an applied event touched from
            RevenueCat's API (as 'refresh' does); a refresh that fails is named and its exit code
            counts. --recover VENDOR --since T [--until T] asks the vendor's API what it sent, or would
            have sent, in that window (App Store: Get Notification History; Stripe: the event list;
            Google Play: the voided purchases, each revoking the purchase of the customer holding its
            token) and applies it as the webhook would: what is already applied is counted and left
            alone.
            See docs/ingest.md.
            """,
        usage: "[--from DIR | --stdin | --recover VENDOR --since DATE [--until DATE]] [--vendor V] [--refresh] [--api-base URL] [--status] [--json] [options]",
        options: [
            fromOption, stdinFlag, recoverOption, sinceOption, untilOption, vendorOption, refreshFlag, AppStoreAPIRun.apiBaseOption, RefreshCommand.timeoutOption, statusFlag, IngestCommand.jsonFlag, WebhookCommand.secretsOption,
            CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement ingest                       # the spool, from cron",
            "entitlement ingest --status",
            "entitlement ingest --from saved-bodies/ --vendor revenuecat",
            "jq -c . events/*.json | entitlement ingest --stdin",
            "entitlement ingest --recover appstore --since -1d   # hourly, from a timer",
        ])

    static let fromOption = Option<String>.string("from", value: "DIR", kind: .directory, help: "Apply the request bodies saved as files in DIR (name order).")
    static let stdinFlag = Flag("stdin", help: "Apply JSON Lines from standard input: one request body per line.")
    static let vendorOption = Option<Vendor>.choice("vendor", value: "V", help: "Only this vendor's events (spool), or the vendor of local input (else detected).")
    static let recoverOption = Option<Vendor>.choice("recover", value: "VENDOR", among: recoverVendors,
                                                     help: "Fetch what VENDOR sent in --since..--until from its API and apply it: \(Vendor.phrase(recoverVendors)).")
    static let sinceOption = Option<Date>.date("since", help: "--recover: the window's start.")
    static let untilOption = Option<Date>.date("until", help: "--recover: the window's end (default now).")
    static let statusFlag = Flag("status", help: "Show the spool: waiting events, the oldest, and failures with reasons.")
    static let jsonFlag = Flag("json", help: "Print the summary as JSON (see docs/ingest.md).")
    static let refreshFlag = Flag("refresh", help: "Then re-read each RevenueCat customer an event changed from RevenueCat's API.")

    var from: String?
    var stdin: Bool
    var vendor: Vendor?
    var status: Bool
    var json: Bool
    var secrets: String?
    var store: String?
    var actor: String?
    var lockTimeout: Double?
    var refresh: Bool
    var apiBase: String?
    var recover: Vendor?
    var since: Date?
    var until: Date?
    var timeout: Double

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        from = try parsed.value(Self.fromOption)
        stdin = parsed.flag(Self.stdinFlag)
        vendor = try parsed.value(Self.vendorOption)
        status = parsed.flag(Self.statusFlag)
        json = parsed.flag(Self.jsonFlag)
        secrets = try parsed.value(WebhookCommand.secretsOption)
        store = try parsed.value(CommonOptions.store)
        actor = try parsed.value(CommonOptions.actor)
        lockTimeout = try parsed.given(CommonOptions.lockTimeout)
        refresh = parsed.flag(Self.refreshFlag)
        apiBase = try parsed.value(AppStoreAPIRun.apiBaseOption)
        recover = try parsed.value(Self.recoverOption)
        since = try parsed.value(Self.sinceOption)
        until = try parsed.value(Self.untilOption)
        timeout = try parsed.value(RefreshCommand.timeoutOption)
        guard timeout > 0 else { throw .usage("--timeout must be more than 0 seconds.", command: Self.spec.name) }
        try checkRecover()
        if apiBase != nil, !refresh, recover == nil { throw .usage("--api-base goes with --refresh or --recover.", command: Self.spec.name) }
        if refresh, status { throw .usage("--status shows the spool; it takes no --refresh.", command: Self.spec.name) }
        if from != nil, stdin { throw .usage("--from and --stdin cannot be used together.", command: Self.spec.name) }
        if status, from != nil || stdin { throw .usage("--status shows the spool; it takes no --from or --stdin.", command: Self.spec.name) }
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let timeout = try CommonOptions.lockTimeout.resolve(given: lockTimeout, environment: context.environment, command: Self.spec.name)
        // A team store commits once per batch (docs/ingest.md, "ingest").
        let store = context.store(flag: self.store, lockTimeout: timeout).withTeamRecorder(environment: context.environment)
        try store.requireExists()
        if status {
            IngestStatusReport.write(try IngestStatus.read(Spool(store: store), now: context.now()), json: json, to: context.stdout)
            return .success
        }
        if let recover { return try runRecover(recover, store: store, context: context) }
        let authenticator = try IngestSettings.authenticator(secretsFlag: secrets, environment: context.environment, store: store, now: context.now())
        // Request files killed webhooks left half-way (never acknowledged: the vendor retries them).
        try store.removeAbandonedRequests(now: context.now())
        let units = try IngestInput.units(from: from, stdin: stdin ? context.stdin.readAll() : nil, vendor: vendor, spool: Spool(store: store), now: context.now())
        let actor = IngestSettings.actor(flag: actor, environment: context.environment)
        let runner = IngestRunner(store: store, authenticator: authenticator, actor: actor)
        var progress = IngestProgress(stream: context.stderr, width: context.statusWidth)
        progress.total = units.units.count
        let report = try runner.run(units.units) { progress.show($0) }
        progress.clear()
        for problem in units.problems + report.problems { context.stderr.write("\(problem)\n") }
        let refreshed = refresh ? try refreshTouched(report, store: store, actor: actor, context: context) : nil
        IngestSummary.write(report, refreshed: refreshed, json: json, to: context.stdout, quiet: context.quiet)
        return ExitCode.worst(ExitCode.worst(report.exitCode, units.problems.isEmpty ? .success : .usage), refreshed?.exitCode ?? .success)
    }
}
