import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement grant USER ENTITLEMENT`: give manual (promotional) access, audited.
struct GrantCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "grant",
        abstract: "Grant manual (promotional) access to an entitlement, with an audit trail.",
        discussion: """
            Give exactly one of --duration, --until or --lifetime. A --duration grant on an
            entitlement that already has an active or scheduled manual grant starts where the
            latest one ends. Store purchases are never changed. Durations: 12h, 7d, 2w, 1m, 1y;
            ISO 8601 (P7D, P1M, P1Y, PT12H); or daily, three_day, weekly, two_week, monthly,
            two_month, three_month, six_month, yearly, lifetime. Months and years are calendar
            months and years in UTC. An unknown user gets a new profile.
            With --stdin, grants to every customer id on standard input (one per line) under one
            lock; a bad line is reported with its number and the others still apply, unless
            --all-or-nothing. See docs/grants.md.
            """,
        usage: "USER ENTITLEMENT (--duration D | --until DATE | --lifetime) [options]\n       entitlement grant --stdin ENTITLEMENT (--duration D | --until DATE | --lifetime) [options]",
        arguments: [
            ArgumentSpec("USER", kind: .userID, optional: true, help: "The customer user id (not with --stdin)."),
            ArgumentSpec("ENTITLEMENT", kind: .entitlementID, optional: true, help: "A configured entitlement, for example premium."),
        ],
        options: [durationOption, untilOption, lifetimeFlag, startsOption, idempotencyKeyOption, stdinFlag, allOrNothingFlag, quietFlag]
            + MutationOptions.declarations,
        examples: [
            "entitlement grant alice@example.com premium --duration 1m --reason 'Outage INC-42' --actor dana",
            "entitlement grant alice@example.com premium --until 2026-12-31 --idempotency-key INC-42-alice",
            "entitlement grant bob premium --lifetime --reason 'Beta tester'",
            "cut -f1 outage.tsv | entitlement grant --stdin premium --duration 7d --reason 'Outage INC-42' --idempotency-key INC-42",
        ])

    /// `GrantDuration.parse`: nil inside means "lifetime" spelt as a duration.
    static let durationOption = Option<GrantDuration?>("duration", value: "D", kind: .duration, help: "How long the grant lasts (see above).") {
        (text, _) throws(ValueProblem) in
        guard let parsed = GrantDuration.parse(text) else {
            throw ValueProblem("invalid duration '\(Terminal.escape(text))'.",
                               hint: "Use a positive amount: 12h, 7d, 2w, 1m, 1y, P7D, P1M, PT12H, or monthly, yearly, lifetime ….")
        }
        if let duration = parsed, !duration.isPositive { throw ValueProblem("the duration must be longer than zero.") }
        return parsed
    }
    static let untilOption = Option<Date>.date("until", help: "The grant ends at this date.")
    static let lifetimeFlag = Flag("lifetime", help: "The grant never expires.")
    static let startsOption = Option<Date>.date("starts", help: "The grant starts later (state 'scheduled' until then).")
    static let idempotencyKeyOption = Option<String>.text("idempotency-key", value: "KEY",
                                                          help: "A retry with the same key changes nothing (the key is scoped per customer).")
    static let stdinFlag = Flag("stdin", help: "Grant to every customer id on standard input, one per line, under one lock.")
    static let allOrNothingFlag = Flag("all-or-nothing", help: "With --stdin: write nothing unless every line is valid and every grant succeeds.")
    /// The common `-q` (`CommonOptions.quiet`), also before the command: one grant prints
    /// nothing; with --stdin, no progress bar and no summary. Errors still go to stderr.
    static let quietFlag = Flag("quiet", short: "q", help: "Print nothing on standard output and no notes (with --stdin: no progress bar, no summary); the exit code answers.")

    /// The customer; nil with --stdin.
    var userID: String?
    var entitlement: String
    var allOrNothing: Bool
    var quiet: Bool
    var term: GrantRequest.Term
    var startsAt: Date?
    var reason: String?
    var idempotencyKey: String?
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        if parsed.flag(Self.stdinFlag) {
            guard parsed.positionals.count == 1 else {
                throw .usage(parsed.positionals.isEmpty ? "missing argument ENTITLEMENT." : "with --stdin, give only ENTITLEMENT; the ids come from standard input.",
                             command: name)
            }
            userID = nil
            entitlement = parsed.positionals[0]
        } else {
            guard parsed.positionals.count == 2 else { throw .usage("missing argument \(parsed.positionals.isEmpty ? "USER" : "ENTITLEMENT").", command: name) }
            let id = try UserID.argument(parsed.positionals[0], command: name)
            // A pasted id with a stray space would silently create a second customer.
            if id.trimmingWhitespace != id { throw .invalidUserID(.surroundingWhitespace(id), command: name) }
            userID = id
            entitlement = parsed.positionals[1]
            if parsed.flag(Self.allOrNothingFlag) { throw .usage("--\(Self.allOrNothingFlag.spec.name) goes with --stdin.", command: name) }
        }
        allOrNothing = parsed.flag(Self.allOrNothingFlag)
        quiet = parsed.flag(Self.quietFlag)
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        let terms: [any OptionDeclaration] = [Self.durationOption, Self.untilOption, Self.lifetimeFlag]
        let given = terms.filter(parsed.isGiven).map { "--\($0.spec.name)" }
        guard given.count == 1 else {
            if given.isEmpty { throw .usage("missing --duration, --until or --lifetime: say how long the grant lasts.", command: name) }
            throw .usage("give only one of --duration, --until and --lifetime (got \(given.joined(separator: " and "))).", command: name)
        }
        if let duration = try parsed.value(Self.durationOption) {
            term = duration.map { .duration($0) } ?? .lifetime
        } else if let until = try parsed.value(Self.untilOption) {
            term = .until(until)
        } else {
            term = .lifetime
        }
        startsAt = try parsed.value(Self.startsOption)
        if case .until(let end) = term, let startsAt, end <= startsAt {
            throw .usage("--until (\(ISODate.format(end))) must be after --starts (\(ISODate.format(startsAt))).", command: name)
        }
        reason = try parsed.value(CommonOptions.reason)
        idempotencyKey = try parsed.value(Self.idempotencyKeyOption)
        options = try MutationOptions(parsed)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let configuration = try store.loadConfiguration()
        try GrantMutation.requireConfigured(entitlement, in: configuration, store: store)
        let now = context.now()
        let request = GrantRequest(userID: userID ?? "", entitlement: entitlement, term: term, startsAt: startsAt, reason: reason,
                                   actor: try options.resolvedActor(context, store: store), idempotencyKey: idempotencyKey)
        guard let userID else { return try runBulk(request, store: store, configuration: configuration, now: now, context: context) }
        let result = try GrantMutation(request: request, now: now, transactionID: "manual-" + context.newID())
            .run(in: store, engine: StatusEngine(configuration: configuration), dryRun: options.dryRun)
        for warning in result.warnings { context.warning(warning) }
        let outcome = result.grant
        MutationReport.grant(outcome, level: result.level, dryRun: options.dryRun, json: options.json, at: now, context: context)
        if outcome.createdProfile, outcome.changed {
            // A typo'd id silently becoming a second customer is the mistake to catch: say it
            // on standard error, which the person sees even with the output in a file.
            let near = result.nearUserID.map { " Did you mean '\(Terminal.escape($0))'?" } ?? ""
            context.note("new customer '\(Terminal.escape(userID))' (no profile existed).\(near)")
        }
        if !outcome.changed, !context.quiet, let revokedAt = outcome.transaction.revokedAt {
            // Still a replay (exit 0), but the caller must not believe the access is there.
            let by = outcome.transaction.revokedBy.map { " by \(Terminal.escape($0))" } ?? ""
            let why = outcome.transaction.revocationReason.map { " (\(Terminal.escape($0)))" } ?? ""
            context.note("grant \(Terminal.escape(outcome.transaction.transactionID)) was revoked at \(ISODate.format(revokedAt))\(by)\(why); this replay did not restore it.")
        }
        return .success
    }
}
