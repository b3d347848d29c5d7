import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementModel
import EntitlementRules
import EntitlementStore
import EntitlementTeam

/// `entitlement history USER`: every transaction, grant and revocation, oldest first.
struct HistoryCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "history",
        abstract: "Show every purchase, grant and revocation of a user, oldest first.",
        discussion: "Answers \"who gave this user premium, and why?\": grants and revocations show actor, reason and the real time they were made.",
        arguments: [ArgumentSpec("USER", kind: .userID, optional: true, help: "The customer user id (or use --profile-id).")],
        options: [
            CommonOptions.store, CommonOptions.profileID,
            entitlementOption, sinceOption, untilOption, limitOption, verifySignaturesFlag, explainFlag,
            CommonOptions.json, CommonOptions.output, CommonOptions.noHeaders,
        ],
        examples: ["entitlement history alice@example.com", "entitlement history alice@example.com --entitlement premium --since 2026-01-01 --until 2026-02-01 --json"])

    static let entitlementOption = Option<String>.string("entitlement", value: "ID", kind: .entitlementID, help: "Only transactions that unlock this entitlement.")
    static let sinceOption = Option<Date>.date("since", help: "Only events at or after this date.")
    static let untilOption = Option<Date>.date("until", help: "Only events before this date.")
    static let verifySignaturesFlag = Flag("verify-signatures", help: "Team store: also check each commit's signature (runs gpg).")
    static let explainFlag = Flag("explain", help: "Also name the vendor event behind each change (vendor, type, id, received time).")
    static let limitOption = Option<Int>.count("limit", value: "N", help: "Only the N most recent events (still shown oldest first).")

    var lookup: ProfileLookup
    var store: String?
    var entitlement: String?
    var since: Date?
    var until: Date?
    var limit: Int?
    var json: Bool
    var output: OutputChoice
    var verifySignatures: Bool
    var explain: Bool

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        lookup = try ProfileLookup.parseOnly(parsed)
        store = try parsed.value(CommonOptions.store)
        entitlement = try parsed.value(Self.entitlementOption)
        since = try parsed.value(Self.sinceOption)
        until = try parsed.value(Self.untilOption)
        if let since, let until, until <= since {
            throw .usage("--until (\(ISODate.format(until))) must be after --since (\(ISODate.format(since))).", command: Self.spec.name)
        }
        limit = try parsed.value(Self.limitOption)
        output = try OutputChoice.parse(parsed)
        json = output.format == .json
        verifySignatures = parsed.flag(Self.verifySignaturesFlag)
        explain = parsed.flag(Self.explainFlag)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = context.store(flag: self.store)
        let engine = StatusEngine(configuration: try store.loadConfiguration())
        guard let profile = try lookup.load(from: store) else { throw lookup.notFoundError(in: store) }
        context.arena.keep(profile)
        var events = HistoryEvent.events(of: profile)
        if let entitlement {
            // A typo must not pass as "no events": the same refusal as grant and revoke (exit 3).
            let known = engine.entitlementIDs(for: profile)
            guard known.contains(entitlement) else {
                throw .unknownEntitlement(UnknownEntitlement(entitlement, known: known, configPath: store.configPath))
            }
            events = events.filter { engine.transaction($0.transaction, unlocks: entitlement) }
        }
        if let since { events = events.filter { $0.at >= since } }
        if let until { events = events.filter { $0.at < until } }
        if let limit, events.count > limit { events = Array(events.suffix(limit)) }
        let repository = store.gitRepository(environment: context.environment)
        var audited = events.map { AuditedEvent($0) }
        if let repository, !events.isEmpty {
            let commits = try GitAudit(repository: repository, store: store).commits(for: profile.customerUserID, verifySignatures: verifySignatures)
            for index in audited.indices { audited[index].recorded = commits[GitAudit.key(audited[index].event)] }
        } else if verifySignatures, repository == nil {
            throw .usage("--verify-signatures needs a team store (git); \(store.root) is a plain store.", command: Self.spec.name)
        }
        if output.format == .table, events.isEmpty {
            context.stdout.write("No events for \(Terminal.escape(profile.customerUserID)).\n")
        } else {
            let sources = explain ? EventSources(store: store).sources(for: events) : nil
            let records = HistoryText.records(audited, customer: profile.customerUserID, audit: repository != nil, sources: sources)
            context.stdout.write(records.render(output, width: context.outputWidth))
            if output.format == .table, repository != nil, let note = HistoryText.mismatchNote(audited) { context.stdout.write(note) }
            if output.format == .table, let note = HistoryText.hiddenColumnsNote(records.table, width: context.outputWidth, style: Style(enabled: context.useColor)) {
                context.stdout.write(note)
            }
        }
        return .success
    }
}
