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
            OptionSpec("limit", value: "N", help: "Only the N most recent events (still shown oldest first)."),
            OptionSpec("verify-signatures", help: "Team store: also check each commit's signature (runs gpg)."),
            CommonOptions.json,
        ],
        examples: ["entitlement history alice@example.com", "entitlement history alice@example.com --entitlement premium --since 2026-01-01 --json"])

    public var lookup: ProfileLookup
    public var store: String?
    public var entitlement: String?
    public var since: Date?
    public var limit: Int?
    public var json: Bool
    public var verifySignatures: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        lookup = try ProfileLookup.parseOnly(parsed, command: name)
        store = parsed.value("store")
        entitlement = parsed.value("entitlement")
        if entitlement?.isEmpty == true { throw .usage("--entitlement must not be empty.", command: name) }
        since = try OptionValues.optionalDate(parsed, "since", command: name)
        if let text = parsed.value("limit") {
            guard let count = Int(text), count > 0 else { throw .usage("invalid value for --limit: '\(Terminal.escape(text))'; expected a whole number above 0.", command: name) }
            limit = count
        }
        json = parsed.flag("json")
        verifySignatures = parsed.flag("verify-signatures")
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
        if let limit, events.count > limit { events = Array(events.suffix(limit)) }
        let repository = store.gitRepository(environment: context.environment)
        if let repository, !events.isEmpty {
            let commits = try GitAudit(repository: repository, store: store).commits(for: profile.customerUserID, verifySignatures: verifySignatures)
            for index in events.indices {
                events[index].recorded = commits[GitAudit.key(events[index].transaction, revocation: events[index].kind == .revocation)]
            }
        } else if verifySignatures {
            throw .usage("--verify-signatures needs a team store (git); \(store.root) is a plain store.", command: Self.spec.name)
        }
        if json {
            context.stdout.write(JSONWriter().string(.array(events.map { .object(repository == nil ? $0.json : $0.auditJSON) })))
        } else if events.isEmpty {
            context.stdout.write("No events for \(Terminal.escape(profile.customerUserID)).\n")
        } else {
            context.stdout.write(HistoryText.render(events, audit: repository != nil))
        }
        return .success
    }
}
