import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel
import EntitlementStore

extension RefreshCommand {
    /// `refresh USER --vendor appstore` (or `--stdin`): the customers' App Store subscriptions
    /// from the App Store Server API, applied through the webhook's path (`AppStoreRefresh`).
    func runAppStore(store: EntitlementStore, context: Context) throws(EntitlementError) -> ExitCode {
        let perSecond = rate ?? (stdin ? RefreshSources.defaultRate(.appstore) : nil)
        let session = try AppStoreAPIRun.session(store: store, secretsFlag: secrets, apiBase: apiBase, timeout: timeout, rate: perSecond, context: context)
        let refresher = AppStoreRefresh(session: session, actor: try options.resolvedActor(context, store: store))
        guard let user else {
            return try runStdin(.appstore, context: context) { (id) throws(EntitlementError) -> StdinRefresh in
                let result = try refresher.refresh(id, transactions: [], now: context.now())
                return StdinRefresh(changed: result.changed, json: Self.json(result), problem: result.report.problems.first)
            }
        }
        let result = try refresher.refresh(user, transactions: transactions, now: context.now())
        for warning in result.warnings { context.warning(warning) }
        for problem in result.report.problems { context.stderr.write("\(problem)\n") }
        let applied = result.report.counts["applied"] ?? 0, same = result.report.counts["duplicate"] ?? 0
        let older = result.report.counts["out_of_order"] ?? 0
        if json {
            context.stdout.write(JSONWriter().string(.object(Self.json(result))))
        } else if !context.quiet {
            let originals = result.originalTransactionIDs.count
            let what = result.changed ? "\(applied) answer\(applied == 1 ? "" : "s") applied" : "no change"
            context.stdout.write("Refreshed \(Terminal.escape(user)) from the App Store (\(originals) original transaction\(originals == 1 ? "" : "s"), "
                                 + "\(result.requests) request\(result.requests == 1 ? "" : "s")): \(what)"
                                 + (same > 0 ? ", \(same) already applied" : "") + (older > 0 ? ", \(older) older than the records" : "") + ".\n")
        }
        return result.report.exitCode
    }

    /// One App Store refresh as JSON (`refresh --json`, and each line of `--stdin --json`).
    static func json(_ result: AppStoreRefresh.Result) -> JSONObject {
        let counts = result.report.counts
        return JSONObject([
            ("user", .string(result.user)), ("vendor", .string("appstore")), ("changed", .bool(result.changed)),
            ("original_transaction_ids", .array(result.originalTransactionIDs.map(JSONValue.string))),
            ("requests", .int(result.requests)), ("answers_applied", .int(counts["applied"] ?? 0)),
            ("answers_already_applied", .int(counts["duplicate"] ?? 0)), ("answers_older", .int(counts["out_of_order"] ?? 0)),
            ("exit_code", .int(Int(result.report.exitCode.rawValue))),
        ])
    }
}
