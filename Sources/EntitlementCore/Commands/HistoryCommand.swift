import FoundationEssentials

/// `entitlement history USER`: every transaction, grant and revocation, oldest first.
public struct HistoryCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "history",
        abstract: "Show every purchase, grant and revocation of a user, oldest first.",
        discussion: "Answers \"who gave this user premium, and why?\": grants and revocations show actor, reason and the real time they were made.",
        arguments: [ArgumentSpec("USER", optional: true, help: "The customer user id (or use --profile-id).")],
        options: [
            CommonOptions.store, CommonOptions.profileID,
            OptionSpec("entitlement", value: "ID", help: "Only transactions that unlock this entitlement."),
            OptionSpec("since", value: "DATE", help: "Only events at or after this date."),
            OptionSpec("until", value: "DATE", help: "Only events before this date."),
            OptionSpec("limit", value: "N", help: "Only the N most recent events (still shown oldest first)."),
            CommonOptions.json,
        ],
        examples: ["entitlement history alice@example.com", "entitlement history alice@example.com --entitlement premium --since 2026-01-01 --until 2026-02-01 --json"])

    public var lookup: ProfileLookup
    public var store: String?
    public var entitlement: String?
    public var since: Date?
    public var until: Date?
    public var limit: Int?
    public var json: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        lookup = try ProfileLookup.parseOnly(parsed, command: name)
        store = parsed.value("store")
        entitlement = parsed.value("entitlement")
        if entitlement?.isEmpty == true { throw .usage("--entitlement must not be empty.", command: name) }
        since = try OptionValues.optionalDate(parsed, "since", command: name)
        until = try OptionValues.optionalDate(parsed, "until", command: name)
        if let since, let until, until <= since {
            throw .usage("--until (\(ISODate.format(until))) must be after --since (\(ISODate.format(since))).", command: name)
        }
        if let text = parsed.value("limit") {
            guard let count = Int(text), count > 0 else { throw .usage("invalid value for --limit: '\(Terminal.escape(text))'; expected a whole number above 0.", command: name) }
            limit = count
        }
        json = parsed.flag("json")
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let engine = StatusEngine(configuration: try store.loadConfiguration())
        guard let profile = try lookup.load(from: store) else { throw lookup.notFoundError }
        context.arena.keep(profile)
        var events = HistoryEvent.events(of: profile)
        if let entitlement {
            if !engine.entitlementIDs(for: profile).contains(entitlement) {
                let suggestion = Suggestion.closest(to: entitlement, in: engine.entitlementIDs(for: profile)).map { " Did you mean '\(Terminal.escape($0))'?" } ?? ""
                context.stderr.write("Note: entitlement '\(Terminal.escape(entitlement))' is not in the product configuration.\(suggestion)\n")
            }
            events = events.filter { engine.transaction($0.transaction, unlocks: entitlement) }
        }
        if let since { events = events.filter { $0.at >= since } }
        if let until { events = events.filter { $0.at < until } }
        if let limit, events.count > limit { events = Array(events.suffix(limit)) }
        if json {
            context.stdout.write(JSONWriter().string(.array(events.map { .object($0.json) })))
        } else if events.isEmpty {
            context.stdout.write("No events for \(Terminal.escape(profile.customerUserID)).\n")
        } else {
            context.stdout.write(HistoryText.render(events))
        }
        return .success
    }
}
