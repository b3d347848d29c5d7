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
        options: [entitlementOption, stateOption, storeNameOption, productOption, expiringWithinOption, attributeOption,
                  CommonOptions.at, CommonOptions.environment, CommonOptions.store, CommonOptions.json, quietFlag],
        examples: [
            "entitlement find --state grace_period,billing_retry --json",
            "entitlement find --entitlement premium --expiring-within 7d --store-name app_store",
            "entitlement find --attribute country=NL --state active",
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
    static let quietFlag = Flag("quiet", short: "q", help: "Print nothing and show no progress; only the exit code answers.")

    var query: FindQuery
    public var store: String?
    public var at: Date?
    public var json: Bool
    public var quiet: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
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
        json = parsed.flag(CommonOptions.json)
        quiet = parsed.flag(Self.quietFlag)
        if quiet && json { throw .usage("--quiet cannot be combined with --json.", command: name) }
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let configuration = try store.loadConfiguration()
        if let id = query.entitlement, configuration.entitlement(id) == nil {
            throw .unknownEntitlement(UnknownEntitlement(id, known: configuration.entitlementIDs, configPath: store.configPath))
        }
        let date = at ?? context.now()
        let run = FindRun(query: query, engine: StatusEngine(configuration: configuration, environment: query.environment), date: date, json: json)
        let scan = ProfileScan(store: store)
        let showProgress = !quiet && context.stderr.isTerminal
        var progress = ScanProgress(stream: context.stderr, label: "find", total: showProgress ? try scan.count() : 0, enabled: showProgress)
        var table = StreamingTable(headers: ["CUSTOMER", "ENTITLEMENT", "STATE", "EXPIRES", "STORE", "PRODUCT"])
        var matches = 0
        var failed = false
        let sweep = ProfileSweep<FindRun.Part>(scan: scan, prefilter: ProfilePrefilter(query, configuration: configuration, at: date),
                                               makePart: { FindRun.Part() }, visit: { run.visit(&$0, $1) }, fail: { $0.errors.append($1) })
        try sweep.run(progress: { progress.show($0) }) { part in
            matches += part.matches
            if !part.errors.isEmpty {
                failed = true
                progress.clear()
                for error in part.errors { CLI(context: context).report(error, json: json, in: context) }
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
