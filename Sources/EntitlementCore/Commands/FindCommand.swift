import FoundationEssentials

/// `entitlement find`: every customer whose access matches the filters, streamed.
public struct FindCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "find",
        abstract: "List customers whose access matches filters (state, entitlement, store, product, expiry, attribute).",
        discussion: """
            Reads every profile on every core and prints one row (or, with --json, one JSON line) per
            matching customer and access level. Filters combine with AND; --state takes a comma-separated
            list: active, grace_period, billing_retry, expired, revoked, scheduled, never. Exit 0 when
            something matched, 1 when nothing did, 4 when a profile could not be read (each is named on stderr).
            """,
        options: [
            OptionSpec("entitlement", value: "ID", help: "Only this entitlement (default: every entitlement of each profile)."),
            OptionSpec("state", value: "STATES", repeatable: true, help: "Only these states, comma-separated."),
            OptionSpec("store-name", value: "NAME", help: "Only access from this store (app_store, play_store, stripe, manual, …)."),
            OptionSpec("product", value: "ID", help: "Only access from this product."),
            OptionSpec("expiring-within", value: "D", help: "Only active access that ends within D (7d, 2w, 1m, …) after --at."),
            OptionSpec("attribute", value: "KEY=VALUE", help: "Only profiles whose custom attribute KEY has this value."),
            CommonOptions.at, CommonOptions.environment, CommonOptions.store, CommonOptions.json,
            OptionSpec("quiet", short: "q", help: "Print nothing and show no progress; only the exit code answers."),
        ],
        examples: [
            "entitlement find --state grace_period,billing_retry --json",
            "entitlement find --entitlement premium --expiring-within 7d --store-name app_store",
            "entitlement find --attribute country=NL --state active",
        ])

    var query: FindQuery
    public var store: String?
    public var at: Date?
    public var json: Bool
    public var quiet: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        func nonEmpty(_ option: String) throws(EntitlementError) -> String? {
            guard let value = parsed.value(option) else { return nil }
            guard !value.isEmpty else { throw .usage("--\(option) must not be empty.", command: name) }
            return value
        }
        query = FindQuery(entitlement: try nonEmpty("entitlement"), storeName: try nonEmpty("store-name"), product: try nonEmpty("product"))
        let stateNames = parsed.allValues("state").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        if !stateNames.isEmpty {
            var states = Set<AccessState>()
            for text in stateNames {
                guard let state = AccessState(rawValue: text.trimmingWhitespace) else {
                    let suggestion = Suggestion.closest(to: text, in: AccessState.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
                    throw .usage("invalid state '\(Terminal.escape(text))'.\(suggestion)",
                                 hint: "States: \(AccessState.allCases.map(\.rawValue).joined(separator: ", ")).", command: name)
                }
                states.insert(state)
            }
            query.states = states
        }
        if let text = parsed.value("expiring-within") {
            guard let parsedDuration = GrantDuration.parse(text), let duration = parsedDuration, duration.isPositive else {
                throw .usage("invalid value for --expiring-within: '\(Terminal.escape(text))'.", hint: "Use a positive span: 12h, 7d, 2w, 1m, P30D ….", command: name)
            }
            query.expiringWithin = duration
        }
        if let text = parsed.value("attribute") {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw .usage("invalid value for --attribute: '\(Terminal.escape(text))'; expected KEY=VALUE.", command: name)
            }
            query.attribute = FindQuery.Attribute(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        }
        query.environment = try OptionValues.environment(parsed, command: name)
        store = parsed.value("store")
        at = try OptionValues.optionalDate(parsed, "at", command: name)
        json = parsed.flag("json")
        quiet = parsed.flag("quiet")
        if quiet && json { throw .usage("--quiet cannot be combined with --json.", command: name) }
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let configuration = try store.loadConfiguration()
        if let id = query.entitlement { try configuration.requireConfigured(id, command: Self.spec.name, configPath: store.configPath) }
        let date = at ?? context.now()
        let run = FindRun(query: query, engine: StatusEngine(configuration: configuration, environment: query.environment), date: date, json: json)
        let scan = ProfileScan(store: store)
        let showProgress = !quiet && context.stderr.isTerminal
        var progress = ScanProgress(stream: context.stderr, label: "find", total: showProgress ? try scan.count() : 0, enabled: showProgress)
        var table = StreamingTable(headers: ["CUSTOMER", "ENTITLEMENT", "STATE", "EXPIRES", "STORE", "PRODUCT"])
        var matches = 0
        var failed = false
        let sweep = ProfileSweep<FindRun.Part>(scan: scan, prefilter: ProfilePrefilter(query, configuration: configuration),
                                               makePart: { FindRun.Part() }, visit: { run.visit(&$0, $1) }, fail: { $0.errors.append($1) })
        try sweep.run(progress: { progress.show($0) }) { part in
            matches += part.matches
            if !part.errors.isEmpty {
                failed = true
                progress.clear()
                for error in part.errors { CLI(context: context).report(error) }
            }
            guard !quiet else { return }
            if json {
                context.stdout.write(bytes: part.lines)
            } else {
                var text = ""
                for row in part.rows { text += table.append(row) }
                if !text.isEmpty { progress.clear(); context.stdout.write(text) }
            }
        }
        progress.clear()
        if !quiet, !json {
            let rest = table.finish()
            context.stdout.write(matches == 0 ? "No customer matches.\n" : rest)
        }
        if failed { return .dataError }
        return matches > 0 ? .success : .notEntitled
    }
}

/// The per-profile work of `find`, safe to run on several threads.
struct FindRun: Sendable {
    /// What one thread found in its share of a batch.
    struct Part: Sendable {
        var lines: [UInt8] = []
        var rows: [[String]] = []
        var matches = 0
        var errors: [EntitlementError] = []
    }

    let query: FindQuery
    let engine: StatusEngine
    let date: Date
    let json: Bool

    func visit(_ part: inout Part, _ profile: Profile) {
        for level in query.matches(profile, engine: engine, at: date) {
            part.matches += 1
            if json {
                JSONWriter(style: .compact).write(.object(Self.jsonLine(level, profile: profile, at: date)), indent: 0, into: &part.lines)
                part.lines.append(0x0A)
            } else {
                part.rows.append([profile.customerUserID, level.id, level.state.rawValue, AccessLevelText.expiry(level, at: date),
                                  level.store?.rawValue ?? "-", level.productID ?? (level.grantType == .manual ? "(manual grant)" : "-")])
            }
        }
    }

    /// The access level, as `check --json` prints it, with the customer.
    static func jsonLine(_ level: AccessLevel, profile: Profile, at date: Date) -> JSONObject {
        var object = level.json
        object["customer_user_id"] = .string(profile.customerUserID)
        object["profile_id"] = .string(profile.profileID)
        object["evaluated_at"] = .string(ISODate.format(date))
        return object
    }
}
