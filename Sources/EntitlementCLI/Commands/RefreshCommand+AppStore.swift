import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel
import EntitlementStore

extension RefreshCommand {
    /// `refresh USER --vendor appstore`: the customer's App Store subscriptions from the App
    /// Store Server API, applied through the webhook's path (`AppStoreRefresh`).
    func runAppStore(_ user: String, store: EntitlementStore, context: Context) throws(EntitlementError) -> ExitCode {
        let setup = try AppStoreAPIRun.make(store: store, secretsFlag: secrets, apiBase: apiBase, timeout: timeout, context: context)
        let runner = IngestRunner(store: store, authenticator: setup.authenticator, actor: try options.resolvedActor(context, store: store))
        let refresher = AppStoreRefresh(api: setup.api, runner: runner, verifier: setup.verifier)
        let result = try refresher.refresh(user, transactions: transactions, now: context.now())
        for warning in result.warnings { context.warning(warning) }
        for problem in result.report.problems { context.stderr.write("\(problem)\n") }
        let applied = result.report.counts["applied"] ?? 0, same = result.report.counts["duplicate"] ?? 0
        let older = result.report.counts["out_of_order"] ?? 0
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("user", .string(user)), ("vendor", .string("appstore")), ("changed", .bool(result.changed)),
                ("original_transaction_ids", .array(result.originalTransactionIDs.map(JSONValue.string))),
                ("requests", .int(result.requests)), ("answers_applied", .int(applied)), ("answers_already_applied", .int(same)),
                ("answers_older", .int(older)), ("exit_code", .int(Int(result.report.exitCode.rawValue))),
            ]))))
        } else if !context.quiet {
            let originals = result.originalTransactionIDs.count
            let what = result.changed ? "\(applied) answer\(applied == 1 ? "" : "s") applied" : "no change"
            context.stdout.write("Refreshed \(Terminal.escape(user)) from the App Store (\(originals) original transaction\(originals == 1 ? "" : "s"), "
                                 + "\(result.requests) request\(result.requests == 1 ? "" : "s")): \(what)"
                                 + (same > 0 ? ", \(same) already applied" : "") + (older > 0 ? ", \(older) older than the records" : "") + ".\n")
        }
        return result.report.exitCode
    }
}
