import FoundationEssentials

/// `entitlement check USER [ENTITLEMENT]`: is this user entitled? Exit 0 yes, 1 no.
public struct CheckCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "check",
        abstract: "Exit 0 if a user has an entitlement now (or at --at), 1 if not.",
        discussion: """
            Made for scripts: an unknown user is simply not entitled (exit 1) unless --strict.
            With --stdin, reads user ids one per line and prints one JSON line per user;
            exit 0 only if every user is entitled, 1 if any is not, 4 if any profile is unreadable.
            """,
        usage: "USER [ENTITLEMENT] [options]\n       entitlement check --stdin [ENTITLEMENT] [options]",
        arguments: [
            ArgumentSpec("USER", optional: true, help: "The customer user id (not with --stdin or --profile-id)."),
            ArgumentSpec("ENTITLEMENT", optional: true, help: "The entitlement to check (default: premium)."),
        ],
        options: [
            CommonOptions.store, CommonOptions.at, CommonOptions.environment, CommonOptions.profileID,
            OptionSpec("quiet", short: "q", help: "Print nothing; only the exit code answers."),
            CommonOptions.json,
            OptionSpec("strict", help: "Exit 3 for an unknown user or an entitlement that is not configured."),
            OptionSpec("explain", help: "Also show which transactions were considered and why."),
            OptionSpec("stdin", help: "Read user ids from standard input, one per line; print JSON Lines."),
        ],
        examples: [
            "entitlement check alice@example.com",
            "entitlement check alice@example.com sports --at 2026-01-15 --quiet && echo entitled",
            "cut -f1 users.tsv | entitlement check --stdin premium",
        ])

    public static let defaultEntitlement = "premium"

    public enum Subject: Equatable, Sendable {
        case single(ProfileLookup)
        case standardInput
    }

    public var subject: Subject
    public var entitlement: String
    public var store: String?
    public var at: Date?
    public var environment: EnvironmentFilter
    public var quiet: Bool
    public var json: Bool
    public var strict: Bool
    public var explain: Bool

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        var positionals = parsed.positionals
        if parsed.flag("stdin") {
            guard parsed.value("profile-id") == nil else { throw .usage("--stdin and --profile-id cannot be used together.", command: name) }
            guard !parsed.flag("explain") else { throw .usage("--explain checks one user; it cannot be used with --stdin.", command: name) }
            subject = .standardInput
        } else {
            let (lookup, rest) = try ProfileLookup.parse(parsed, command: name)
            subject = .single(lookup)
            positionals = rest
        }
        guard positionals.count <= 1 else { throw .usage("unexpected argument '\(Terminal.escape(positionals[1]))'.", command: name) }
        entitlement = positionals.first ?? Self.defaultEntitlement
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        store = parsed.value("store")
        at = try OptionValues.optionalDate(parsed, "at", command: name)
        environment = try OptionValues.environment(parsed, command: name)
        quiet = parsed.flag("quiet")
        json = parsed.flag("json")
        strict = parsed.flag("strict")
        explain = parsed.flag("explain")
        if quiet && (json || explain) { throw .usage("--quiet cannot be combined with --json or --explain.", command: name) }
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let date = at ?? context.now()
        switch subject {
        case .standardInput:
            return try BatchCheck(command: self, store: store, date: date).run(context)
        case .single(let lookup):
            return try checkOne(lookup, store: store, date: date, context: context)
        }
    }

    func checkOne(_ lookup: ProfileLookup, store: EntitlementStore, date: Date, context: Context) throws(EntitlementError) -> ExitCode {
        // The configuration is small, and reading it always means a broken store is
        // reported (exit 4) even for a user without a profile.
        let configuration = try store.loadConfiguration()
        let profile = try lookup.load(from: store)
        if strict {
            if profile == nil {
                if case .user(let id) = lookup { throw .unknownUser(id) }
                throw lookup.notFoundError
            }
            if configuration.entitlement(entitlement) == nil {
                throw .unknownEntitlement(entitlement, suggestion: Suggestion.closest(to: entitlement, in: configuration.entitlementIDs))
            }
        } else if !quiet, configuration.entitlement(entitlement) == nil {
            // Still exit 1, as scripts expect, but a person sees why.
            let suggestion = Suggestion.closest(to: entitlement, in: configuration.entitlementIDs).map { " Did you mean '\(Terminal.escape($0))'?" } ?? ""
            context.stderr.write("Note: entitlement '\(Terminal.escape(entitlement))' is not in the product configuration.\(suggestion)\n")
        }
        let userID: String?
        switch lookup {
        case .user(let id): userID = profile?.customerUserID ?? id
        case .profileID: userID = profile?.customerUserID
        }
        let evaluation: Evaluation
        if let profile {
            evaluation = StatusEngine(configuration: configuration, environment: environment).evaluate(entitlement, for: profile, at: date)
        } else {
            evaluation = Evaluation(accessLevel: AccessLevel(id: entitlement, state: .never), considerations: [], decision: "no profile for this user")
        }
        let level = evaluation.accessLevel
        if json {
            var object = level.json
            object["customer_user_id"] = .string(userID)
            object["profile_id"] = .string(profile?.profileID)
            object["evaluated_at"] = .string(ISODate.format(date))
            if explain { object["explanation"] = .object(ExplanationRenderer.json(evaluation)) }
            context.stdout.write(JSONWriter().string(.object(object)))
        } else if !quiet {
            let style = Style(enabled: context.useColor)
            context.stdout.write(AccessLevelText.checkLine(user: userID ?? lookup.displayName, level: level, at: date, hasProfile: profile != nil, style: style))
            if explain { context.stdout.write(ExplanationRenderer.text(evaluation, at: date, style: style)) }
        }
        return level.isActive ? .success : .notEntitled
    }
}
