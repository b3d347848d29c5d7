import FoundationEssentials

/// `entitlement status USER`: the profile and every entitlement's state.
public struct StatusCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "status",
        abstract: "Show a profile and the state of every entitlement.",
        arguments: [ArgumentSpec("USER", kind: .userID, optional: true, help: "The customer user id (or use --profile-id).")],
        options: [
            CommonOptions.store, CommonOptions.at, CommonOptions.environment, CommonOptions.profileID, CommonOptions.json,
            explainFlag,
        ],
        examples: ["entitlement status alice@example.com", "entitlement status alice@example.com --at 2026-01-15 --explain", "entitlement status --profile-id 6b1c2f8e-5f7a-4a39-9a55-0d6a9f1e2b11 --json"])

    static let explainFlag = Flag("explain", help: "Show which transactions were considered for each entitlement, and the rule that decided.")

    public var lookup: ProfileLookup
    public var store: String?
    public var at: Date?
    public var environment: EnvironmentFilter
    public var json: Bool
    public var explain: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        lookup = try ProfileLookup.parseOnly(parsed)
        store = try parsed.value(CommonOptions.store)
        at = try parsed.value(CommonOptions.at)
        environment = try parsed.value(CommonOptions.environment)
        json = parsed.flag(CommonOptions.json)
        explain = parsed.flag(Self.explainFlag)
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let configuration = try store.loadConfiguration()
        guard let profile = try lookup.load(from: store) else { throw lookup.notFoundError }
        context.arena.keep(profile)
        let engine = StatusEngine(configuration: configuration, environment: environment)
        let date = at ?? context.now()
        if json {
            context.stdout.write(JSONWriter().string(.object(ProfileJSON.render(profile, engine: engine, at: date, explain: explain))))
        } else {
            context.stdout.write(ProfileText.render(profile, engine: engine, at: date, explain: explain, style: Style(enabled: context.useColor)))
        }
        return .success
    }
}
