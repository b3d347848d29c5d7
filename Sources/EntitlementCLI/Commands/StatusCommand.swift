import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement status USER`: the profile and every entitlement's state.
struct StatusCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show a profile and the state of every entitlement.",
        arguments: [ArgumentSpec("USER", kind: .userID, optional: true, help: "The customer user id (or use --profile-id).")],
        options: [
            CommonOptions.store, CommonOptions.at, CommonOptions.environment, CommonOptions.profileID, CommonOptions.json,
            CommonOptions.output, CommonOptions.noHeaders, explainFlag,
        ],
        examples: ["entitlement status alice@example.com", "entitlement status alice@example.com --at 2026-01-15 --explain", "entitlement status --profile-id 6b1c2f8e-5f7a-4a39-9a55-0d6a9f1e2b11 --json"])

    static let explainFlag = Flag("explain", help: "Show which transactions were considered for each entitlement, and the rule that decided.")

    var lookup: ProfileLookup
    var store: String?
    var at: Date?
    var environment: EnvironmentFilter
    var json: Bool
    var explain: Bool
    var output: OutputChoice

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        lookup = try ProfileLookup.parseOnly(parsed)
        store = try parsed.value(CommonOptions.store)
        at = try parsed.value(CommonOptions.at)
        environment = try parsed.value(CommonOptions.environment)
        output = try OutputChoice.parse(parsed)
        json = output.format == .json
        explain = parsed.flag(Self.explainFlag)
        if explain, ![.table, .json].contains(output.format) {
            throw .usage("--explain prints with the table or json output, not \(output.format.rawValue).", command: Self.spec.name)
        }
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let configuration = try store.loadConfiguration()
        let date = at ?? context.now()
        if output.format == .json, !explain {
            // Written out in runs as it is made: a profile of 10,000 transactions is 2.4 MB of JSON.
            let sink = ByteSink(capacity: 2 * ByteSink.drainThreshold) { context.stdout.write($0) }
            if renderFlat(store: store, configuration: configuration, at: date, into: sink) {
                context.stdout.write(sink)
                return .success
            }
        }
        guard let profile = try lookup.load(from: store) else { throw lookup.notFoundError(in: store) }
        context.arena.keep(profile)
        let engine = StatusEngine(configuration: configuration, environment: environment)
        let style = Style(enabled: context.useColor)
        switch output.format {
        case .json:
            // Written out in runs as it is made: a profile of 10,000 transactions is 2.4 MB of JSON.
            let sink = ByteSink(capacity: 2 * ByteSink.drainThreshold) { context.stdout.write($0) }
            ProfileJSON.render(profile, engine: engine, at: date, explain: explain, into: sink)
            context.stdout.write(sink)
        case .table:
            context.stdout.write(ProfileText.render(profile, engine: engine, at: date, explain: explain, style: style,
                                                    headers: output.headers, width: context.outputWidth))
        case .jsonl, .csv, .tsv:
            // One record per entitlement.
            let levels = engine.accessLevels(for: profile, at: date)
            context.stdout.write(AccessLevelText.records(levels, at: date, style: style, userID: profile.customerUserID).render(output, width: nil))
        }
        return .success
    }
}
