import FoundationEssentials
import EntitlementModel
import EntitlementRules
import EntitlementStore
import EntitlementImport
import EntitlementTeam

extension GrantCommand {
    /// `grant --stdin`: every id on standard input, under one lock.
    func runBulk(_ request: GrantRequest, store: EntitlementStore, configuration: ProductConfiguration, now: Date,
                 context: Context) throws(EntitlementError) -> ExitCode {
        let lines = BulkGrantInput.parse(context.stdin.readAll())
        if lines.isEmpty {
            // As `check --stdin`: no ids is a "no" (exit 1) with a note, not a silent success.
            if !quiet { context.stderr.write("Note: no user ids on standard input; nothing was granted.\n") }
            return .notEntitled
        }
        let bulk = BulkGrant(store: store, engine: StatusEngine(configuration: configuration), template: request, now: now,
                             newID: context.newID, dryRun: options.dryRun, allOrNothing: allOrNothing,
                             change: ChangeDescription(summary: ChangeSummary.bulkGrant(request, customers: lines.filter { $0.userID != nil && $0.duplicateOf == nil }.count),
                                                       actor: request.actor))
        let showProgress = !quiet && context.stderr.isTerminal && lines.count > 1
        var progress = ScanProgress(stream: context.stderr, label: "grant", total: lines.count, enabled: showProgress, unit: "ids")
        var worst = ExitCode.success
        var failures: [BulkGrant.Result] = []
        let totals = try bulk.run(lines, progress: { progress.show($0) }) { result in
            if let error = result.error {
                worst = worst.rawValue >= error.exitCode.rawValue ? worst : error.exitCode
                failures.append(result)
            }
            if options.json { context.stdout.write(bytes: BulkGrantReport.jsonLine(result, dryRun: options.dryRun, at: now)) }
        }
        progress.clear()
        if !options.json, !quiet {
            context.stdout.write(BulkGrantReport.summary(totals, entitlement: entitlement, lines: lines.count, dryRun: options.dryRun,
                                                         allOrNothing: allOrNothing, failures: failures))
        }
        return worst
    }
}
