import EntitlementIngest
import FoundationEssentials
import EntitlementImport
import EntitlementModel
import EntitlementStore

/// `entitlement import FILE...`: vendor purchase data into profiles, reconciled with the vendor's verdicts.
struct ImportCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import purchases from App Store, RevenueCat, Adapty or Qonversion documents.",
        discussion: """
            Detects each document's vendor and shape, maps it onto transactions and renewal info,
            and merges it into the customer's profile without duplicates: importing a document
            twice changes nothing. Products the document maps to entitlements are added to
            config.json only with --update-config; without it, each is named in a warning.
            Where the vendor states its own verdict about access, it is compared with ours
            at the document's time, and every disagreement is listed (never fixed).
            Each FILE is imported or refused on its own; the exit code is the worst of theirs.
            App Store JWS signatures are verified (chain to Apple Root CA - G3, Apple's
            OIDs, validity at signedDate, ES256, and app_store.bundle_id / app_apple_id of
            config.json when set); a document that fails is refused with exit 4 and nothing
            from it is written. See docs/import.md and docs/security.md.
            """,
        usage: "FILE... [--format F] [--user USER] [--at DATE] [--trust-root FILE] [--update-config] [--dry-run] [options]",
        arguments: [ArgumentSpec("FILE", kind: .file, variadic: true, help: "A vendor document; - reads standard input (one or more documents, e.g. JSON Lines).")],
        options: [
            formatOption, userOption, atOption, trustRootOption, allowXcodeFlag, noVerifyFlag, updateConfigFlag, CommonOptions.dryRun, jsonFlag, CommonOptions.store, CommonOptions.actor, CommonOptions.lockTimeout,
        ],
        examples: [
            "entitlement import subscriber.json",
            "entitlement import notification.json --user alice@example.com --dry-run",
            "entitlement import profile.json --at 2026-03-15T12:00:00Z --json",
            "cat entitlements.jsonl | entitlement import --format qonversion --user bob -",
        ])

    static let formatOption = Option<Vendor>.choice("format", value: "F", help: "\(Vendor.phrase()): the document must be one of its shapes.")
    static let userOption = Option<String>("user", value: "USER", kind: .userID, help: "Import into this customer user id (needed when the document names none).") {
        (text, _) throws(ValueProblem) in
        do throws(UserID.Problem) { return try UserID.validate(text) } catch { throw ValueProblem(error.message + ".", hint: error.hint) }
    }
    static let atOption = Option<Date>.date("at", help: "Compare vendor verdicts at this date when a document carries no date.").describingDefault("now")
    static let jsonFlag = Flag("json", help: "Print the summary as JSON (see docs/import.md).")
    static let trustRootOption = Option<String>("trust-root", value: "FILE", kind: .file, repeatable: true,
                                                help: "Also trust this root certificate (DER or PEM) for App Store data, e.g. Apple's test CA.") {
        (text, _) throws(ValueProblem) in
        guard !text.isEmpty else { throw ValueProblem("FILE must not be empty.") }
        return text
    }
    .describingDefault("none", environmentVariable: TrustSettings.environmentVariable)
    static let allowXcodeFlag = Flag("allow-xcode", help: "Accept App Store data of the Xcode and LocalTesting environments, which no Apple root signs.")
    static let noVerifyFlag = Flag("no-verify", help: "Decode App Store JWS without verifying them (only for data verified elsewhere).")
    static let updateConfigFlag = Flag("update-config", help: "Add the products the documents map to entitlements to config.json (shared: off by default).")

    var files: [String]
    var format: Vendor?
    var user: String?
    var at: Date?
    /// `--trust-root`, `--allow-xcode` and `--no-verify`.
    var trust: TrustSettings
    /// Write the configuration changes the documents state (docs/import.md, section 7.5).
    var updateConfig: Bool
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        files = parsed.positionals
        guard !files.contains("") else { throw .usage("FILE must not be empty.", command: name) }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw .usage("'-' (standard input) can be given only once.", command: name) }
        format = try parsed.value(Self.formatOption)
        user = try parsed.value(Self.userOption)
        at = try parsed.value(Self.atOption)
        trust = TrustSettings(trustRoots: try parsed.values(Self.trustRootOption), allowXcode: parsed.flag(Self.allowXcodeFlag),
                              verify: !parsed.flag(Self.noVerifyFlag))
        guard trust.verify || (trust.trustRoots.isEmpty && !trust.allowXcode) else {
            throw .usage("--no-verify cannot be combined with --trust-root or --allow-xcode.", command: name)
        }
        updateConfig = parsed.flag(Self.updateConfigFlag)
        options = try MutationOptions(parsed)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        try store.requireExists()
        let request = ImportSession.Request(files: files, format: format, user: user, at: at, verify: trust.verify,
                                            updateConfig: updateConfig, dryRun: dryRun)
        var session = ImportSession(request, store: store, observer: ImportPresenter(context: context, json: json),
                                    standardInput: { context.stdin.readAll() })
        let now = context.now()
        // The store's App Store identity and trust, resolved as `ingest` and `webhook` resolve them.
        let settings = trust.verify
            ? try AppStoreSettings.resolve(store: store, secrets: SecretsFile.load(SecretsFile.location(flag: nil, environment: context.environment)))
            : AppStoreSettings()
        let jws = try trust.reader(environment: context.environment, settings: settings, now: now, command: Self.spec.name)
        let outcomes = try session.run(now: now, jws: jws) { () throws(EntitlementError) in try options.resolvedActor(context, store: store) }
        ImportReport.write(outcomes, session: session, context: context, json: json)
        // One rule with check --stdin: the worst code of all documents wins.
        return outcomes.compactMap { $0.error?.exitCode }.reduce(.success, ExitCode.worst)
    }

    var dryRun: Bool { options.dryRun }
    var json: Bool { options.json }
}
