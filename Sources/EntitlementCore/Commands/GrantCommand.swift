import FoundationEssentials

/// `entitlement grant USER ENTITLEMENT`: give manual (promotional) access, audited.
public struct GrantCommand: RunnableCommand, Equatable {
    public static let spec = CommandSpec(
        name: "grant",
        abstract: "Grant manual (promotional) access to an entitlement, with an audit trail.",
        discussion: """
            Give exactly one of --duration, --until or --lifetime. A --duration grant on an
            entitlement that already has an active or scheduled manual grant starts where the
            latest one ends. Store purchases are never changed. Durations: 12h, 7d, 2w, 1m, 1y;
            ISO 8601 (P7D, P1M, P1Y, PT12H); or daily, three_day, weekly, two_week, monthly,
            two_month, three_month, six_month, yearly, lifetime. Months and years are calendar
            months and years in UTC. An unknown user gets a new profile.
            """,
        usage: "USER ENTITLEMENT (--duration D | --until DATE | --lifetime) [options]",
        arguments: [
            ArgumentSpec("USER", help: "The customer user id."),
            ArgumentSpec("ENTITLEMENT", help: "A configured entitlement, for example premium."),
        ],
        options: [
            OptionSpec("duration", value: "D", help: "How long the grant lasts (see above)."),
            OptionSpec("until", value: "DATE", help: "The grant ends at this date."),
            OptionSpec("lifetime", help: "The grant never expires."),
            OptionSpec("starts", value: "DATE", help: "The grant starts later (state 'scheduled' until then)."),
            OptionSpec("idempotency-key", value: "KEY", help: "A retry with the same key changes nothing."),
        ] + MutationOptions.specs,
        examples: [
            "entitlement grant alice@example.com premium --duration 1m --reason 'Outage INC-42' --actor dana",
            "entitlement grant alice@example.com premium --until 2026-12-31 --idempotency-key INC-42-alice",
            "entitlement grant bob premium --lifetime --reason 'Beta tester'",
        ])

    public var userID: String
    public var entitlement: String
    public var term: GrantRequest.Term
    public var startsAt: Date?
    public var reason: String?
    public var idempotencyKey: String?
    var options: MutationOptions

    public init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        userID = try OptionValues.userID(parsed.positionals[0], command: name)
        // A pasted id with a stray space would silently create a second customer.
        if userID.trimmingWhitespace != userID {
            throw .usage("the user id '\(Terminal.escape(userID))' starts or ends with white space.",
                         hint: "Check the id; grant never creates such a profile from the command line.", command: name)
        }
        entitlement = parsed.positionals[1]
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        let given = ["duration", "until", "lifetime"].filter { parsed.value($0) != nil || parsed.flag($0) }
        guard given.count == 1 else {
            if given.isEmpty { throw .usage("missing --duration, --until or --lifetime: say how long the grant lasts.", command: name) }
            throw .usage("give only one of --duration, --until and --lifetime (got \(given.map { "--\($0)" }.joined(separator: " and "))).", command: name)
        }
        if let text = parsed.value("duration") {
            guard let parsedDuration = GrantDuration.parse(text) else {
                throw .usage("invalid duration '\(Terminal.escape(text))'.", hint: "Use a positive amount: 12h, 7d, 2w, 1m, 1y, P7D, P1M, PT12H, or monthly, yearly, lifetime ….", command: name)
            }
            if let duration = parsedDuration {
                guard duration.isPositive else { throw .usage("the duration must be longer than zero.", command: name) }
                term = .duration(duration)
            } else {
                term = .lifetime
            }
        } else if parsed.value("until") != nil {
            term = .until(try OptionValues.date(parsed.value("until")!, option: "until", command: name))
        } else {
            term = .lifetime
        }
        startsAt = try OptionValues.optionalDate(parsed, "starts", command: name)
        if case .until(let end) = term, let startsAt, end <= startsAt {
            throw .usage("--until (\(ISODate.format(end))) must be after --starts (\(ISODate.format(startsAt))).", command: name)
        }
        reason = try OptionValues.text(parsed, "reason", command: name)
        idempotencyKey = try OptionValues.text(parsed, "idempotency-key", command: name)
        options = try MutationOptions(parsed, command: name)
    }

    public func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let configuration = try store.loadConfiguration()
        guard configuration.entitlement(entitlement) != nil else {
            let suggestion = Suggestion.closest(to: entitlement, in: configuration.entitlementIDs)
            throw .usage("entitlement '\(Terminal.escape(entitlement))' is not in the product configuration.\(suggestion.map { " Did you mean '\(Terminal.escape($0))'?" } ?? "")",
                         hint: "Configured: \(configuration.entitlementIDs.map(Terminal.escape).joined(separator: ", ")). Add new ones to \(Terminal.escape(store.configPath)).",
                         command: Self.spec.name)
        }
        let now = context.now()
        let request = GrantRequest(userID: userID, entitlement: entitlement, term: term, startsAt: startsAt, reason: reason,
                                   actor: try options.resolvedActor(context, store: store), idempotencyKey: idempotencyKey)
        let transactionID = "manual-" + UUID().uuidString.lowercased()
        let profileID = UUID().uuidString.lowercased()
        let outcome: GrantOutcome
        if options.dryRun {
            outcome = try GrantPlanner.apply(request, to: store.loadProfile(userID: userID), now: now, newTransactionID: transactionID, newProfileID: profileID)
        } else {
            outcome = try store.withWriteLock(ChangeDescription(summary: ChangeSummary.grant(request), actor: request.actor)) { () throws(EntitlementError) -> GrantOutcome in
                let result = try GrantPlanner.apply(request, to: store.loadProfile(userID: userID), now: now,
                                                    newTransactionID: transactionID, newProfileID: profileID)
                if result.changed { try store.saveProfile(result.profile) }
                return result
            }
        }
        let level = StatusEngine(configuration: configuration).evaluate(entitlement, for: outcome.profile, at: now).accessLevel
        MutationReport.grant(outcome, level: level, dryRun: options.dryRun, json: options.json, at: now, context: context)
        return .success
    }
}
