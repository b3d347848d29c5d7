import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement summary`: the whole store at a glance, per entitlement.
struct SummaryCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "summary",
        abstract: "Count customers per entitlement and state, expiring soon, in billing trouble, by store.",
        discussion: """
            Reads every profile on every core. 'Expiring' counts active access whose end falls within
            7 or 30 days after --at; 'billing trouble' is grace_period plus billing_retry; the store
            split is by the store of the transaction that decides each access level. On a terminal,
            counts come with bar charts, and tables and bars fit its width. --output json is --json;
            summary prints one document, so jsonl, csv and tsv do not apply. Unreadable profiles
            are named on stderr (exit 4).
            """,
        options: [CommonOptions.at, CommonOptions.environment, CommonOptions.store, CommonOptions.json, outputOption, quietFlag],
        examples: ["entitlement summary", "entitlement summary --at 2026-01-15 --json"])

    /// `--output`, of which summary (one document) prints two formats.
    static let outputOption = Option<OutputFormat>("output", value: "FORMAT", kind: .choice([OutputFormat.table.rawValue, OutputFormat.json.rawValue]),
                                                   help: "Print the summary as table or json (--json).") { (text, source) throws(ValueProblem) in
        guard let format = OutputFormat(rawValue: text), [.table, .json].contains(format) else {
            throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'; expected table or json (summary prints one document).")
        }
        return format
    }.withDefault(.table, shown: OutputFormat.table.rawValue)
    static let quietFlag = Flag("quiet", short: "q", help: "Show no progress bar.")

    var store: String?
    var at: Date?
    var environment: EnvironmentFilter
    var json: Bool
    var quiet: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        store = try parsed.value(CommonOptions.store)
        at = try parsed.value(CommonOptions.at)
        environment = try parsed.value(CommonOptions.environment)
        let output = try parsed.given(Self.outputOption)
        if output == .table, parsed.flag(CommonOptions.json) {
            throw .usage("--json means --output json; it cannot be combined with --output table.", command: Self.spec.name)
        }
        json = output == .json || parsed.flag(CommonOptions.json)
        quiet = parsed.flag(Self.quietFlag)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let configuration = try store.loadConfiguration()
        let engine = StatusEngine(configuration: configuration, environment: environment)
        let date = at ?? context.now()
        let scan = ProfileScan(store: store)
        let showProgress = !quiet && context.stderr.isTerminal
        var progress = ScanProgress(stream: context.stderr, label: "summary", total: showProgress ? try scan.count() : 0, enabled: showProgress,
                                    width: context.statusWidth)
        var summary = StoreSummary()
        var errors: [EntitlementError] = []
        let sweep = ProfileSweep<StoreSummary>(scan: scan, makePart: { StoreSummary() }, visit: { $0.add($1, engine: engine, at: date) },
                                               fail: { part, _ in part.unreadable += 1 })
        try sweep.run(progress: { progress.show($0) }) { part in summary.merge(part) }
        progress.clear()
        if summary.unreadable > 0 {
            // Named after the counts are in, so a broken file never hides the totals.
            let failing = ProfileSweep<[EntitlementError]>(scan: scan, makePart: { [] }, visit: { _, _ in }, fail: { $0.append($1) })
            try failing.run { errors += $0 }
            for error in errors { CLI(context: context).report(error, json: json, in: context) }
        }
        if json {
            context.stdout.write(JSONWriter().string(.object(SummaryReport.json(summary, configuration: configuration, at: date))))
        } else {
            context.stdout.write(SummaryReport.text(summary, configuration: configuration, at: date, width: context.outputWidth,
                                                    style: Style(enabled: context.useColor)))
        }
        return summary.unreadable > 0 ? .dataError : .success
    }
}
