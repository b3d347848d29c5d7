import FoundationEssentials

/// `entitlement import FILE...`: vendor purchase data into profiles, reconciled with the vendor's verdicts.
public struct ImportCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "import",
        abstract: "Import purchases from App Store, RevenueCat, Adapty or Qonversion documents.",
        discussion: """
            Detects each document's vendor and shape, maps it onto transactions and renewal info,
            and merges it into the customer's profile without duplicates: importing a document
            twice changes nothing. Products the document maps to entitlements are added to
            config.json. Where the vendor states its own verdict about access, it is compared
            with ours at the document's time, and every disagreement is listed (never fixed).
            Each FILE is imported or refused on its own; the exit code is not 0 if any failed.
            App Store JWS signatures are decoded, not verified. See docs/import.md.
            """,
        usage: "FILE... [--format F] [--user USER] [--at DATE] [--dry-run] [options]",
        arguments: [ArgumentSpec("FILE", variadic: true, help: "A vendor document; - reads standard input (one or more documents, e.g. JSON Lines).")],
        options: [
            OptionSpec("format", value: "F", help: "appstore, revenuecat, adapty or qonversion: the document must be one of its shapes."),
            OptionSpec("user", value: "USER", help: "Import into this customer user id (needed when the document names none)."),
            OptionSpec("at", value: "DATE", help: "Compare vendor verdicts at this date when a document carries no date (default: now)."),
            CommonOptions.dryRun, OptionSpec("json", help: "Print the summary as JSON (see docs/import.md)."), CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement import subscriber.json",
            "entitlement import notification.json --user alice@example.com --dry-run",
            "entitlement import profile.json --at 2026-03-15T12:00:00Z --json",
            "cat entitlements.jsonl | entitlement import --format qonversion --user bob -",
        ])

    public var files: [String]
    public var format: ImportFormat?
    public var user: String?
    public var at: Date?
    var options: MutationOptions

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        files = parsed.positionals
        guard !files.contains("") else { throw .usage("FILE must not be empty.", command: name) }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw .usage("'-' (standard input) can be given only once.", command: name) }
        if let text = parsed.value("format") {
            guard let format = ImportFormat(rawValue: text) else {
                let names = ImportFormat.allCases.map(\.rawValue)
                let suggestion = Suggestion.closest(to: text, in: names).map { " Did you mean '\($0)'?" } ?? ""
                throw .usage("invalid value for --format: '\(Terminal.escape(text))'; expected \(names.dropLast().joined(separator: ", ")) or \(names.last!).\(suggestion)", command: name)
            }
            self.format = format
        }
        user = try parsed.value("user").map { (text) throws(EntitlementError) -> String in try OptionValues.userID(text, command: name) }
        at = try OptionValues.optionalDate(parsed, "at", command: name)
        options = try MutationOptions(parsed, command: name)
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        try store.requireExists()
        var session = ImportSession(command: self, context: context, store: store)
        let outcomes = try session.run()
        ImportReport.write(outcomes, session: session)
        return outcomes.first(where: \.failed)?.error?.exitCode ?? .success
    }

    var dryRun: Bool { options.dryRun }
    var json: Bool { options.json }
}
