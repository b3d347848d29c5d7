import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement check USER [ENTITLEMENT]`: is this user entitled? Exit 0 yes, 1 no.
struct CheckCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Exit 0 if a user has an entitlement now (or at --at), 1 if not.",
        discussion: """
            Made for scripts: an unknown user is simply not entitled (exit 1) unless --strict.
            With --stdin, reads user ids one per line and prints one JSON line per user; the
            worst answer is the exit code (0 all entitled, 1 any not entitled or no ids at all,
            2 any id refused, 3 any unknown with --strict, 4 any profile unreadable).
            """,
        usage: "USER [ENTITLEMENT] [options]\n       entitlement check --stdin [ENTITLEMENT] [options]",
        arguments: [
            ArgumentSpec("USER", kind: .userID, optional: true, help: "The customer user id (not with --stdin or --profile-id)."),
            ArgumentSpec("ENTITLEMENT", kind: .entitlementID, optional: true, defaultText: defaultEntitlement, help: "The entitlement to check."),
        ],
        options: [
            CommonOptions.store, CommonOptions.at, CommonOptions.environment, CommonOptions.profileID,
            quietFlag, CommonOptions.json, CommonOptions.output, CommonOptions.noHeaders, strictFlag, explainFlag, stdinFlag,
        ],
        examples: [
            "entitlement check alice@example.com",
            "entitlement check alice@example.com sports --at 2026-01-15 --quiet && echo entitled",
            "cut -f1 users.tsv | entitlement check --stdin premium",
        ])

    /// The entitlement checked when none is named; help shows it from here.
    static let defaultEntitlement = "premium"
    static let quietFlag = Flag("quiet", short: "q", help: "Print nothing; only the exit code answers.")
    static let strictFlag = Flag("strict", help: "Exit 3 for an unknown user or an entitlement that is not configured.")
    static let explainFlag = Flag("explain", help: "Also show which transactions were considered and why.")
    static let stdinFlag = Flag("stdin", help: "Read user ids from standard input, one per line; print JSON Lines.")

    enum Subject: Equatable, Sendable {
        case single(ProfileLookup)
        case standardInput
    }

    var subject: Subject
    var entitlement: String
    var store: String?
    var at: Date?
    var environment: EnvironmentFilter
    var quiet: Bool
    var json: Bool
    /// `--output`; with --stdin the default is jsonl.
    var output: OutputChoice
    var strict: Bool
    var explain: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        var positionals = parsed.positionals
        let byProfileID = parsed.isGiven(CommonOptions.profileID)
        if parsed.flag(Self.stdinFlag) {
            guard !byProfileID else { throw .usage("--stdin and --profile-id cannot be used together.", command: name) }
            guard !parsed.flag(Self.explainFlag) else { throw .usage("--explain checks one user; it cannot be used with --stdin.", command: name) }
            subject = .standardInput
        } else {
            let (lookup, rest) = try ProfileLookup.parse(parsed)
            subject = .single(lookup)
            positionals = rest
        }
        guard positionals.count <= 1 else {
            // Never take a stray id as the entitlement: with --stdin or --profile-id, USER is not an argument.
            let source = subject == .standardInput ? "--stdin reads the user ids" : byProfileID ? "--profile-id names the profile" : "USER is the first argument"
            throw .usage("unexpected argument '\(Terminal.escape(positionals[1]))': \(source); the only other argument is ENTITLEMENT.", command: name)
        }
        entitlement = positionals.first ?? Self.defaultEntitlement
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        store = try parsed.value(CommonOptions.store)
        at = try parsed.value(CommonOptions.at)
        environment = try parsed.value(CommonOptions.environment)
        quiet = parsed.flag(Self.quietFlag)
        output = try OutputChoice.parse(parsed)
        // --stdin prints JSON Lines unless --output says otherwise (--json too, as it always has).
        if subject == .standardInput, !parsed.isGiven(CommonOptions.output) { output.format = .jsonl }
        json = output.format == .json
        strict = parsed.flag(Self.strictFlag)
        explain = parsed.flag(Self.explainFlag)
        if explain, ![.table, .json].contains(output.format) {
            throw .usage("--explain prints with the table or json output, not \(output.format.rawValue).", command: name)
        }
        if quiet && (json || explain) { throw .usage("--quiet cannot be combined with --json or --explain.", command: name) }
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let date = at ?? context.now()
        switch subject {
        case .standardInput:
            return try checkStdin(store: store, date: date, context: context)
        case .single(let lookup):
            return try checkOne(lookup, store: store, date: date, context: context)
        }
    }

    /// The entitlement checked, when the configuration does not have it.
    func unknownEntitlement(in configuration: ProductConfiguration, store: EntitlementStore) -> UnknownEntitlement? {
        guard configuration.entitlement(entitlement) == nil else { return nil }
        return UnknownEntitlement(entitlement, known: configuration.entitlementIDs, configPath: store.configPath)
    }
}
