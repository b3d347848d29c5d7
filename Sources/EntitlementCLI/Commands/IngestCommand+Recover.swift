import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// The vendors `ingest --recover` asks (docs/ingest.md, "Recovering missed events").
enum RecoverVendor: String, CaseIterable, Sendable {
    case appstore, stripe

    var displayName: String { self == .appstore ? "App Store" : "Stripe" }
    var noun: String { self == .appstore ? "notification" : "event" }
}

extension IngestCommand {
    /// The options `--recover` needs and refuses.
    func checkRecover() throws(EntitlementError) {
        let name = Self.spec.name
        guard recover != nil else {
            if since != nil || until != nil { throw .usage("--since and --until go with --recover VENDOR.", command: name) }
            return
        }
        if from != nil || stdin || status || refresh || vendor != nil {
            throw .usage("--recover fetches from the vendor's API; it takes no --from, --stdin, --status, --refresh or --vendor.", command: name)
        }
        guard let since else { throw .usage("--recover needs --since DATE: the start of the window to fetch (e.g. -1d).", command: name) }
        if let until, until <= since { throw .usage("--until must be after --since.", command: name) }
    }

    /// Fetches every event of the window (all pages first: a failure applies nothing), then
    /// applies them through the webhook's path: the ledger counts what was already applied.
    func runRecover(_ recover: RecoverVendor, store: EntitlementStore, context: Context) throws(EntitlementError) -> ExitCode {
        let now = context.now()
        let start = since ?? now, end = until ?? now
        let actor = IngestSettings.actor(flag: actor, environment: context.environment)
        let fetched: (units: [IngestUnit], requests: Int)
        let runner: IngestRunner
        switch recover {
        case .appstore:
            let setup = try AppStoreAPIRun.make(store: store, secretsFlag: secrets, apiBase: apiBase, timeout: timeout, context: context)
            runner = IngestRunner(store: store, authenticator: setup.authenticator, actor: actor)
            fetched = try AppStoreNotificationHistory(api: setup.api).units(since: start, until: end, receivedAt: now)
        case .stripe:
            let path = SecretsFile.location(flag: secrets, environment: context.environment)
            let authenticator = try IngestSettings.authenticator(secretsFlag: secrets, environment: context.environment, store: store, now: now)
            let client = VendorAPIClient(timeout: timeout, environment: context.environment, pacing: context.pacing)
            let history = try StripeEventHistory(client: client, apiBase: apiBase, secrets: authenticator.secrets, secretsPath: path)
            runner = IngestRunner(store: store, authenticator: authenticator, actor: actor)
            fetched = try history.units(since: start, until: end, receivedAt: now)
        }
        var progress = IngestProgress(stream: context.stderr, width: context.statusWidth)
        progress.total = fetched.units.count
        let report = try runner.run(fetched.units) { progress.show($0) }
        progress.clear()
        for problem in report.problems { context.stderr.write("\(problem)\n") }
        let counts = report.counts
        let new = (counts["applied"] ?? 0) + (counts["out_of_order"] ?? 0), already = counts["duplicate"] ?? 0
        let failed = report.total - new - already
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("vendor", .string(recover.rawValue)), ("since", .string(ISODate.format(start))), ("until", .string(ISODate.format(end))),
                ("requests", .int(fetched.requests)), ("fetched", .int(fetched.units.count)), ("new", .int(new)),
                ("already_applied", .int(already)), ("failed", .int(failed)),
                ("counts", .object(JSONObject(IngestReport.columns.map { ($0, .int(counts[$0] ?? 0)) }))),
                ("exit_code", .int(Int(report.exitCode.rawValue))),
            ]))))
        } else if !context.quiet {
            let count = fetched.units.count
            context.stdout.write("Recovered \(count) \(recover.displayName) \(recover.noun)\(count == 1 ? "" : "s") from \(ISODate.format(start)) to \(ISODate.format(end))"
                                 + " (\(fetched.requests) request\(fetched.requests == 1 ? "" : "s")): \(new) new, \(already) already applied, \(failed) failed.\n")
        }
        return report.exitCode
    }
}
