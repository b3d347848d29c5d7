import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore
import EntitlementTeam

/// `entitlement log`: every audited event across all customers, oldest first.
struct LogCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "log",
        abstract: "List every grant, revocation, restore and import across all customers, oldest first.",
        discussion: """
            Answers "who granted what to whom this month, and why?": one record per event with customer,
            entitlement, event, actor, reason and transaction; in a team store also the commit and its author.
            A plain store is read on every core; a team store reads git's history for the period, so the
            cost follows the period. --event takes a comma-separated list: grant, revocation, restore,
            transfer, import. Exit 0 (also when nothing matched), 4 when a profile could not be read.
            """,
        options: [
            sinceOption, untilOption, actorOption, entitlementOption, eventOption, limitOption,
            CommonOptions.store, CommonOptions.json, CommonOptions.output, CommonOptions.noHeaders,
        ],
        examples: [
            "entitlement log --since 2026-11-01 --until 2026-12-01",
            "entitlement log --actor dana@example.com --event grant,revocation --output csv",
            "entitlement log --entitlement premium --limit 20 --json",
        ])

    static let sinceOption = Option<Date>.date("since", help: "Only events at or after this date.")
    static let untilOption = Option<Date>.date("until", help: "Only events before this date.")
    static let actorOption = Option<String>.text("actor", value: "WHO", help: "Only events recorded by WHO (Name <email>, the name or the email).")
    static let entitlementOption = Option<String>.string("entitlement", value: "ID", kind: .entitlementID, help: "Only transactions that unlock this entitlement.")
    static let limitOption = Option<Int>.count("limit", value: "N", help: "Only the N most recent events (still shown oldest first).")
    static let eventOption = Option<Set<LogQuery.Event>>("event", value: "EVENTS", kind: .choice(LogQuery.Event.allCases.map(\.rawValue)), repeatable: true,
                                                         help: "Only these events, comma-separated.") { (text, source) throws(ValueProblem) in
        var events = Set<LogQuery.Event>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ String($0).trimmingWhitespace }) {
            guard let event = LogQuery.Event(rawValue: name) else {
                let suggestion = Suggestion.closest(to: name, in: LogQuery.Event.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
                throw ValueProblem("invalid event '\(Terminal.escape(name))' in \(source.phrase).\(suggestion)",
                                   hint: "Events: \(LogQuery.Event.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            events.insert(event)
        }
        return events
    }

    var query: LogQuery
    var store: String?
    var output: OutputChoice

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        query = LogQuery(since: try parsed.value(Self.sinceOption), until: try parsed.value(Self.untilOption),
                         actor: try parsed.value(Self.actorOption), entitlement: try parsed.value(Self.entitlementOption),
                         limit: try parsed.value(Self.limitOption))
        if let since = query.since, let until = query.until, until <= since {
            throw .usage("--until (\(ISODate.format(until))) must be after --since (\(ISODate.format(since))).", command: Self.spec.name)
        }
        if query.entitlement?.isEmpty == true { throw .usage("--entitlement must not be empty.", command: Self.spec.name) }
        let events = try parsed.values(Self.eventOption)
        if !events.isEmpty { query.events = events.reduce(into: Set<LogQuery.Event>()) { $0.formUnion($1) } }
        store = try parsed.value(CommonOptions.store)
        output = try OutputChoice.parse(parsed)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        try store.requireExists()
        let configuration = try store.loadConfiguration()
        let engine = StatusEngine(configuration: configuration)
        if let id = query.entitlement, configuration.entitlement(id) == nil {
            throw .unknownEntitlement(UnknownEntitlement(id, known: configuration.entitlementIDs, configPath: store.configPath))
        }
        let repository = store.gitRepository(environment: context.environment)
        var failed = false
        let records: [LogRecord]
        if let repository {
            records = try GitLogReader(repository: repository, query: query, engine: engine).records()
        } else {
            records = try PlainLogReader(store: store, query: query, engine: engine).records { error in
                failed = true
                CLI(context: context).report(error, json: output.format.isJSON, in: context)
            }
        }
        if output.format == .table, records.isEmpty {
            context.stdout.write("No events.\n")
        } else {
            context.stdout.write(LogText.records(records, team: repository != nil).render(output, width: context.outputWidth))
        }
        return failed ? .dataError : .success
    }
}
