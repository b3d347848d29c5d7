import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

extension GrantCommand {
    /// Failed lines the summary lists; the others are counted (each is on standard error).
    static let summaryFailures = 20

    /// `grant --stdin`: every id on standard input, under one lock.
    ///
    /// Input is read as it arrives, by `StdinLine`'s rule. A refused line is reported at once
    /// (standard error, and its JSON line under `--json`) and not kept; a grant that fails
    /// is reported when its batch is done. Standard error gets every failure so that the
    /// person at the terminal sees it with the output redirected (`> result.json`).
    func runBulk(_ request: GrantRequest, store: EntitlementStore, configuration: ProductConfiguration, now: Date,
                 context: Context) throws(EntitlementError) -> ExitCode {
        var failures = FailureLog(context: context, json: options.json)
        var input = BulkGrantInput()
        var buffer = LineBuffer()
        func refused(_ line: BulkGrantLine) {
            let result = BulkGrant.Result(line: line, error: BulkGrant.lineError(line))
            failures.add(result)
            if options.json { context.stdout.write(bytes: BulkGrantReport.jsonLine(result, dryRun: options.dryRun, at: now)) }
        }
        while let chunk = context.stdin.readChunk() {
            for line in buffer.feed(chunk) { input.read(line, refused: refused) }
        }
        if let last = buffer.finish() { input.read(last, refused: refused) }
        let lines = input.lines
        let lineCount = lines.count + input.refusedCount
        if lineCount == 0 {
            // As `check --stdin`: no ids is a "no" (exit 1) with a note, not a silent success.
            if !quiet { context.note("no user ids on standard input; nothing was granted.") }
            return .notEntitled
        }
        var totals = BulkGrant.Totals()
        // --all-or-nothing writes nothing once a line is refused; nothing to plan either.
        if !lines.isEmpty, !(allOrNothing && input.refusedCount > 0) {
            let bulk = BulkGrant(store: store, engine: StatusEngine(configuration: configuration), template: request, now: now,
                                 newID: context.newID, dryRun: options.dryRun, allOrNothing: allOrNothing,
                                 change: ChangeDescription(summary: ChangeSummary.bulkGrant(request, customers: lines.filter { $0.duplicateOf == nil }.count),
                                                           actor: request.actor))
            let showProgress = !quiet && context.stderr.isTerminal && lines.count > 1
            var progress = ScanProgress(stream: context.stderr, label: "grant", total: lines.count, enabled: showProgress, unit: "ids")
            totals = try bulk.run(lines, progress: { progress.show($0) }) { result in
                if result.error != nil {
                    progress.clear()
                    failures.add(result)
                }
                if options.json { context.stdout.write(bytes: BulkGrantReport.jsonLine(result, dryRun: options.dryRun, at: now)) }
            }
            progress.clear()
        }
        totals.failed += input.refusedCount
        if !options.json, !quiet {
            context.stdout.write(BulkGrantReport.summary(totals, entitlement: entitlement, lines: lineCount, dryRun: options.dryRun,
                                                         allOrNothing: allOrNothing, failures: failures.listed, notListed: failures.notListed))
        }
        return failures.worst
    }
}

/// The failures of one `grant --stdin`: each reported on standard error as it happens; the
/// first `GrantCommand.summaryFailures` kept for the summary, the rest only counted.
private struct FailureLog {
    let context: Context
    let json: Bool
    private(set) var listed: [BulkGrant.Result] = []
    private(set) var notListed = 0
    private(set) var worst = ExitCode.success

    init(context: Context, json: Bool) {
        self.context = context
        self.json = json
    }

    mutating func add(_ result: BulkGrant.Result) {
        guard let error = result.error else { return }
        worst = ExitCode.worst(worst, error.exitCode)
        if listed.count < GrantCommand.summaryFailures { listed.append(result) } else { notListed += 1 }
        context.stderr.write(json ? error.jsonLine : "Error: \(BulkGrantReport.failureLine(result))\n")
    }
}
