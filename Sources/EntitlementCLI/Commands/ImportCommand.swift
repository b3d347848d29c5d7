import FoundationEssentials
import EntitlementModel
import EntitlementImport

/// `entitlement import FILE...`: vendor purchase data into profiles, reconciled with the vendor's verdicts.
package struct ImportCommand: RunnableCommand, Equatable {
    package static let spec = CommandSpec(
        name: "import",
        abstract: "Import purchases from App Store, RevenueCat, Adapty or Qonversion documents.",
        discussion: """
            Detects each document's vendor and shape, maps it onto transactions and renewal info,
            and merges it into the customer's profile without duplicates: importing a document
            twice changes nothing. Products the document maps to entitlements are added to
            config.json. Where the vendor states its own verdict about access, it is compared
            with ours at the document's time, and every disagreement is listed (never fixed).
            Each FILE is imported or refused on its own; the exit code is the worst of theirs.
            App Store JWS signatures are decoded, not verified. See docs/import.md.
            """,
        usage: "FILE... [--format F] [--user USER] [--at DATE] [--dry-run] [options]",
        arguments: [ArgumentSpec("FILE", kind: .file, variadic: true, help: "A vendor document; - reads standard input (one or more documents, e.g. JSON Lines).")],
        options: [
            formatOption, userOption, atOption, CommonOptions.dryRun, jsonFlag, CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement import subscriber.json",
            "entitlement import notification.json --user alice@example.com --dry-run",
            "entitlement import profile.json --at 2026-03-15T12:00:00Z --json",
            "cat entitlements.jsonl | entitlement import --format qonversion --user bob -",
        ])

    static let formatOption = Option<ImportFormat>.choice("format", value: "F", help: "appstore, revenuecat, adapty or qonversion: the document must be one of its shapes.")
    static let userOption = Option<String>("user", value: "USER", kind: .userID, help: "Import into this customer user id (needed when the document names none).") {
        (text, _) throws(ValueProblem) in
        do throws(UserID.Problem) { return try UserID.validate(text) } catch { throw ValueProblem(error.message + ".", hint: error.hint) }
    }
    static let atOption = Option<Date>.date("at", help: "Compare vendor verdicts at this date when a document carries no date.").describingDefault("now")
    static let jsonFlag = Flag("json", help: "Print the summary as JSON (see docs/import.md).")

    package var files: [String]
    package var format: ImportFormat?
    package var user: String?
    package var at: Date?
    var options: MutationOptions

    package init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        files = parsed.positionals
        guard !files.contains("") else { throw .usage("FILE must not be empty.", command: name) }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw .usage("'-' (standard input) can be given only once.", command: name) }
        format = try parsed.value(Self.formatOption)
        user = try parsed.value(Self.userOption)
        at = try parsed.value(Self.atOption)
        options = try MutationOptions(parsed)
    }

    package func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        try store.requireExists()
        var session = ImportSession(command: self, context: context, store: store)
        let outcomes = try session.run()
        ImportReport.write(outcomes, session: session)
        // One rule with check --stdin: the worst code of all documents wins.
        return outcomes.compactMap { $0.error?.exitCode }.reduce(.success, ExitCode.worst)
    }

    var dryRun: Bool { options.dryRun }
    var json: Bool { options.json }
}
