import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel
import EntitlementStore

extension IngestCommand {
    /// The vendors `ingest --recover` asks (docs/ingest.md, "Recovering missed events"):
    /// those whose API lists what they sent.
    static let recoverVendors: [Vendor] = [.appstore, .googleplay, .stripe]

    /// What one vendor's recovery fetches, for the summary line.
    static func recoveredNoun(_ vendor: Vendor) -> String {
        switch vendor {
        case .googleplay: return "voided purchase"
        case .appstore: return "notification"
        default: return "event"
        }
    }

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
    func runRecover(_ recover: Vendor, store: EntitlementStore, context: Context) throws(EntitlementError) -> ExitCode {
        let now = context.now()
        let start = since ?? now, end = until ?? now
        let actor = IngestSettings.actor(flag: actor, environment: context.environment)
        let fetched: (prepared: [(unit: IngestUnit, parsed: IngestRunner.ParsedUnit)], requests: Int)
        let runner: IngestRunner
        let client = VendorAPIClient(timeout: timeout, environment: context.environment, pacing: context.pacing)
        switch recover {
        case .appstore:
            let session = try AppStoreAPIRun.session(store: store, secretsFlag: secrets, apiBase: apiBase, timeout: timeout, context: context)
            runner = session.runner(actor: actor)
            let history = try AppStoreNotificationHistory(session: session).units(since: start, until: end, receivedAt: now)
            fetched = (history.units.map { ($0, runner.parse($0)) }, history.requests)
        default:
            let path = SecretsFile.location(flag: secrets, environment: context.environment)
            let authenticator = try IngestSettings.authenticator(secretsFlag: secrets, environment: context.environment, store: store, now: now)
            runner = IngestRunner(store: store, authenticator: authenticator, actor: actor)
            if recover == .stripe {
                let history = StripeEventHistory(client: client, apiBase: apiBase, apiKey: try RefreshSources.apiKey(.stripe, authenticator.secrets, path))
                let events = try history.units(since: start, until: end, receivedAt: now)
                fetched = (events.units.map { ($0, runner.parse($0)) }, events.requests)
            } else {
                let google = try GooglePlayAPI(secrets: authenticator.secrets, secretsPath: path, client: client, wallClock: RefreshCommand.wallClock(context))
                fetched = try GooglePlayVoidedPurchases(client: client, base: apiBase, google: google).units(since: start, until: end, receivedAt: now)
            }
        }
        var progress = IngestProgress(stream: context.stderr, width: context.statusWidth)
        progress.total = fetched.prepared.count
        let report = try runner.run(prepared: fetched.prepared) { progress.show($0) }
        progress.clear()
        for problem in report.problems { context.stderr.write("\(problem)\n") }
        let counts = report.counts
        let notHeld = report.notHeld
        let new = (counts["applied"] ?? 0) + (counts["out_of_order"] ?? 0) - notHeld, already = counts["duplicate"] ?? 0
        let failed = report.total - new - already - notHeld
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("vendor", .string(recover.rawValue)), ("since", .string(ISODate.format(start))), ("until", .string(ISODate.format(end))),
                ("requests", .int(fetched.requests)), ("fetched", .int(fetched.prepared.count)), ("new", .int(new)),
                ("already_applied", .int(already)), ("not_held", .int(notHeld)), ("failed", .int(failed)),
                ("counts", .object(JSONObject(IngestReport.columns.map { ($0, .int(counts[$0] ?? 0)) }))),
                ("exit_code", .int(Int(report.exitCode.rawValue))),
            ]))))
        } else if !context.quiet {
            let count = fetched.prepared.count
            context.stdout.write("Recovered \(count) \(recover.displayName) \(Self.recoveredNoun(recover))\(count == 1 ? "" : "s") from \(ISODate.format(start)) to \(ISODate.format(end))"
                                 + " (\(fetched.requests) request\(fetched.requests == 1 ? "" : "s")): \(new) new, \(already) already applied, "
                                 + (recover == .googleplay ? "\(notHeld) not held here, " : "") + "\(failed) failed.\n")
        }
        return report.exitCode
    }
}
