import EntitlementRules
import EntitlementStore
import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementModel

/// `entitlement transfer FROM TO`: move store purchases from one customer to another, as a
/// RevenueCat `TRANSFER` event does (docs/ingest.md, "Transfers and aliases").
struct TransferCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "transfer",
        abstract: "Move store purchases from one customer to another (both histories keep it).",
        discussion: """
            Moves the named transactions (every store purchase when none is named; manual grants
            stay) and their renewal info from FROM to TO, creating TO's profile if needed. Both
            files change in one journal (all or nothing) and, in a team store, one commit. Both
            profiles' transfers list records the move with actor and reason, so history of either
            customer shows it. First shows what it will move; on a terminal it then asks for
            confirmation; without one it refuses (exit 2) unless --yes is given. If what it would
            move changed while it waited for the answer, it moves nothing and exits 2. --dry-run
            never asks.
            """,
        usage: "FROM TO [--transaction ID]... --reason TEXT [options]",
        arguments: [
            ArgumentSpec("FROM", kind: .userID, help: "The customer user id the purchases leave."),
            ArgumentSpec("TO", kind: .userID, help: "The customer user id they go to (created if new)."),
        ],
        options: [transactionOption, yesFlag] + MutationOptions.declarations,
        examples: [
            "entitlement transfer old@example.com new@example.com --reason 'Account merge, ticket 1182'",
            "entitlement transfer alice bob --transaction 2000000123 --reason 'Bought on the wrong account' --yes",
        ])

    static let transactionOption = Option<String>.string("transaction", value: "ID", kind: .transactionID, repeatable: true,
                                                          help: "Move only this transaction.")
    static let yesFlag = Flag("yes", short: "y", help: "Transfer without asking for confirmation (required without a terminal).")

    var from: String
    var to: String
    var transactionIDs: [String]
    var reason: String
    var yes: Bool
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        from = try UserID.argument(parsed.positionals[0], command: name)
        to = try UserID.argument(parsed.positionals[1], command: name)
        transactionIDs = try parsed.values(Self.transactionOption)
        guard let reason = try parsed.value(CommonOptions.reason), !reason.trimmingWhitespace.isEmpty else {
            throw .usage("transfer needs --reason: it is recorded in both customers' history.", command: name)
        }
        self.reason = reason
        options = try MutationOptions(parsed)
        yes = parsed.flag(Self.yesFlag)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let actor = try options.resolvedActor(context, store: store)
        var transfer = CustomerTransfer(from: from, to: to, transactionIDs: transactionIDs, note: TransferNote(at: context.now(), by: actor, reason: reason))
        if options.dryRun {
            TransferReport.result(try transfer.plan(in: store), dryRun: true, json: options.json, context: context)
            return .success
        }
        var confirmed: [String]?
        if !yes {
            let plan = try transfer.plan(in: store)
            if !plan.moved.isEmpty {
                context.stdout.flush()
                context.stderr.write(TransferReport.preview(plan))
                guard context.isInteractive else {
                    throw .usage("transfer needs confirmation, and there is no terminal to ask on.",
                                 hint: "Add --yes (-y) to transfer without asking, or --dry-run to only see what would move.", command: Self.spec.name)
                }
                guard context.confirm("Transfer \(plan.moved.count == 1 ? "it" : "them")?") else {
                    context.stderr.write("Nothing transferred.\n")
                    return .notEntitled
                }
                // The move happens when the person said yes, not when the question was asked.
                transfer.note.at = max(transfer.note.at, CLI.storePrecision(context.clock()))
            }
            confirmed = plan.moved
        }
        let (plan, warnings) = try transfer.apply(in: store) { (plan) throws(EntitlementError) in
            if let confirmed { try Self.requireConfirmed(confirmed, planned: plan.moved) }
        }
        for warning in warnings { context.warning(warning) }
        TransferReport.result(plan, dryRun: false, json: options.json, context: context)
        return .success
    }

    /// After a confirmation, the plan made under the lock must be the one shown.
    static func requireConfirmed(_ shown: [String], planned: [String]) throws(EntitlementError) {
        guard shown != planned else { return }
        func list(_ ids: [String]) -> String { ids.isEmpty ? "nothing" : ids.map(Terminal.escape).joined(separator: ", ") }
        throw .usage("what transfer would do changed while it waited for confirmation: it showed \(list(shown)), it would now move \(list(planned)). Nothing transferred.",
                     hint: "Run the command again to see what it would move now.", command: spec.name)
    }
}
