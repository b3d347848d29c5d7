import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement find`: every customer whose access matches the filters, streamed.
struct FindCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "find",
        abstract: "List customers whose access matches filters (state, entitlement, store, product, expiry, attribute).",
        discussion: """
            Reads every profile on every core and prints one record per matching customer and access
            level, as they are found: a table, or with --output jsonl|json|csv|tsv (--json is jsonl here).
            Filters combine with AND; --state takes a comma-separated
            list: active, grace_period, billing_retry, paused, expired, revoked, scheduled, never. Exit 0 when
            something matched, 1 when nothing did, 4 when a profile could not be read (each is named on stderr).
            """,
        options: [entitlementOption, stateOption, storeNameOption, productOption, expiringWithinOption, attributeOption,
                  CommonOptions.at, CommonOptions.environment, CommonOptions.store, jsonFlag, outputOption, CommonOptions.noHeaders, quietFlag],
        examples: [
            "entitlement find --state grace_period,billing_retry --json",
            "entitlement find --entitlement premium --expiring-within 7d --store-name app_store",
            "entitlement find --attribute country=NL --state active",
            "entitlement find --state expired --output csv --no-headers | cut -d, -f1",
        ])

    static let entitlementOption = Option<String>.string("entitlement", value: "ID", kind: .entitlementID,
                                                         help: "Only this entitlement (default: every entitlement of each profile).")
    /// A comma-separated list of states, repeatable.
    static let stateOption = Option<Set<AccessState>>("state", value: "STATES", kind: .choice(AccessState.allCases.map(\.rawValue)), repeatable: true,
                                                      help: "Only these states, comma-separated.") { (text, source) throws(ValueProblem) in
        var states = Set<AccessState>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ String($0).trimmingWhitespace }) {
            guard let state = AccessState(rawValue: name) else {
                let suggestion = Suggestion.closest(to: name, in: AccessState.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
                throw ValueProblem("invalid state '\(Terminal.escape(name))' in \(source.phrase).\(suggestion)",
                                   hint: "States: \(AccessState.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            states.insert(state)
        }
        return states
    }
    static let storeNameOption = Option<String>.text("store-name", value: "NAME",
                                                     help: "Only access from this store (app_store, play_store, stripe, manual, …).")
    static let productOption = Option<String>.string("product", value: "ID", kind: .text, help: "Only access from this product.")
    static let expiringWithinOption = Option<GrantDuration>("expiring-within", value: "D", kind: .duration,
                                                            help: "Only active access that ends within D (7d, 2w, 1m, …) after --at.") {
        (text, source) throws(ValueProblem) in
        guard let parsed = GrantDuration.parse(text), let duration = parsed, duration.isPositive else {
            throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'.", hint: "Use a positive span: 12h, 7d, 2w, 1m, P30D ….")
        }
        return duration
    }
    static let attributeOption = Option<FindQuery.Attribute>("attribute", value: "KEY=VALUE", kind: .text,
                                                             help: "Only profiles whose custom attribute KEY has this value.") {
        (text, source) throws(ValueProblem) in
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'; expected KEY=VALUE.")
        }
        return FindQuery.Attribute(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }
    /// The shared `--output`, with help that says what --json means here.
    static let outputOption = Option<OutputFormat>.choice("output", value: "FORMAT", help: "Print records as table, jsonl (--json), json (one array), csv or tsv.")
        .withDefault(.table, shown: OutputFormat.table.rawValue)
    /// find's --json is JSON Lines (one line per record, streamed), as it always was.
    static let jsonFlag = Flag("json", help: "Print JSON Lines (--output jsonl); errors as JSON on standard error.")
    static let quietFlag = Flag("quiet", short: "q", help: "Print nothing and show no progress; only the exit code answers.")

    var query: FindQuery
    var store: String?
    var at: Date?
    var output: OutputChoice
    var quiet: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        query = FindQuery(entitlement: try parsed.value(Self.entitlementOption), storeName: try parsed.value(Self.storeNameOption),
                          product: try parsed.value(Self.productOption))
        if query.entitlement?.isEmpty == true { throw .usage("--entitlement must not be empty.", command: name) }
        let states = try parsed.values(Self.stateOption)
        if !states.isEmpty { query.states = states.reduce(into: Set<AccessState>()) { $0.formUnion($1) } }
        query.expiringWithin = try parsed.value(Self.expiringWithinOption)
        query.attribute = try parsed.value(Self.attributeOption)
        query.environment = try parsed.value(CommonOptions.environment)
        store = try parsed.value(CommonOptions.store)
        at = try parsed.value(CommonOptions.at)
        let json = parsed.flag(Self.jsonFlag)
        if json, let given = try parsed.given(Self.outputOption), given != .jsonl {
            throw .usage("--json means --output jsonl for find; it cannot be combined with --output \(given.rawValue).", command: name)
        }
        output = OutputChoice(format: json ? .jsonl : try parsed.value(Self.outputOption), headers: !parsed.flag(CommonOptions.noHeaders))
        quiet = parsed.flag(Self.quietFlag)
        // As with `check`: `--quiet --json` contradicts itself, while `--output` (which an
        // alias may set) is simply not printed under `--quiet`.
        if quiet && json { throw .usage("--quiet cannot be combined with --json.", command: name) }
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let configuration = try store.loadConfiguration()
        if let id = query.entitlement, configuration.entitlement(id) == nil {
            throw .unknownEntitlement(UnknownEntitlement(id, known: configuration.entitlementIDs, configPath: store.configPath))
        }
        let date = at ?? context.now()
        let run = FindRun(query: query, engine: StatusEngine(configuration: configuration, environment: query.environment), date: date,
                          format: quiet ? nil : output.format, terminal: context.stdout.isTerminal)
        let scan = ProfileScan(store: store)
        let showProgress = !quiet && context.stderr.isTerminal
        var progress = ScanProgress(stream: context.stderr, label: "find", total: showProgress ? try scan.count() : 0, enabled: showProgress,
                                    width: context.statusWidth)
        var printer = FindPrinter(output: output, stdout: context.stdout, width: context.outputWidth, style: Style(enabled: context.useColor))
        var matches = 0
        var failed = false
        var sweep = ProfileSweep<FindRun.Part>(scan: scan, prefilter: ProfilePrefilter(query, configuration: configuration, at: date),
                                               makePart: { FindRun.Part() }, visit: { run.visit(&$0, $1) }, fail: { $0.errors.append($1) })
        sweep.stop = { context.stdout.isClosed }
        try sweep.run(progress: { progress.show($0) }) { part in
            matches += part.matches
            if !part.errors.isEmpty {
                failed = true
                progress.clear()
                for error in part.errors { CLI(context: context).report(error, json: output.format.isJSON, in: context) }
            }
            guard !quiet else { return }
            printer.print(part) { progress.clear() }
        }
        progress.clear()
        if !quiet { printer.finish(matches: matches) }
        if failed { return .dataError }
        return matches > 0 ? .success : .notEntitled
    }
}
