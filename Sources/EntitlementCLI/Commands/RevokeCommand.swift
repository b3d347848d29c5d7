import FoundationEssentials
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement revoke USER ENTITLEMENT`: take back manual access; history keeps it all.
struct RevokeCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "revoke",
        abstract: "Revoke manual grants of an entitlement (and, with --include-store, store purchases).",
        discussion: """
            Sets revoked_at on every active or scheduled manual grant of ENTITLEMENT, and records
            the actor and reason. Nothing is deleted. Without --include-store, access that comes
            from a store purchase stays, and the command says which purchase keeps it.
            First shows what it will revoke and the access that remains or ends. On a terminal it
            then asks for confirmation; without one it refuses (exit 2) unless --yes is given.
            If what it would revoke changed while it waited for the answer, it revokes nothing
            and exits 2. --dry-run never asks. 'entitlement restore' undoes a revocation.
            """,
        arguments: [
            ArgumentSpec("USER", kind: .userID, help: "The customer user id."),
            ArgumentSpec("ENTITLEMENT", kind: .entitlementID, help: "The entitlement to revoke."),
        ],
        options: [transactionOption, includeStoreFlag, yesFlag] + MutationOptions.declarations,
        examples: [
            "entitlement revoke alice@example.com premium --reason 'Granted by mistake'",
            "entitlement revoke alice@example.com premium --reason 'Granted by mistake' --yes   # in scripts",
            "entitlement revoke alice@example.com premium --include-store --reason 'Refunded by support, ticket 981'",
        ])

    static let transactionOption = Option<String>.string("transaction", value: "ID", kind: .transactionID, help: "Revoke only this transaction.")
    static let includeStoreFlag = Flag("include-store", help: "Also revoke store purchases (for refunds handled outside the store).")
    static let yesFlag = Flag("yes", short: "y", help: "Revoke without asking for confirmation (required without a terminal).")

    var userID: String
    var request: RevokeRequestOptions
    /// `--yes`: no confirmation.
    var yes: Bool
    var options: MutationOptions

    /// The parsed parts of a revoke request; the actor is resolved at run time.
    struct RevokeRequestOptions: Equatable, Sendable {
        var entitlement: String
        var transactionID: String?
        var includeStore: Bool
        var reason: String?
    }

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        userID = try UserID.argument(parsed.positionals[0], command: name)
        let entitlement = parsed.positionals[1]
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        request = RevokeRequestOptions(entitlement: entitlement, transactionID: try parsed.value(Self.transactionOption),
                                       includeStore: parsed.flag(Self.includeStoreFlag), reason: try parsed.value(CommonOptions.reason))
        options = try MutationOptions(parsed)
        yes = parsed.flag(Self.yesFlag)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let engine = StatusEngine(configuration: try store.loadConfiguration())
        var now = context.now()
        let revokeRequest = RevokeRequest(entitlement: request.entitlement, transactionID: request.transactionID, includeStore: request.includeStore,
                                          reason: request.reason, actor: try options.resolvedActor(context, store: store))
        var confirmed: [String]?
        if !options.dryRun, !yes {
            guard let ids = try confirm(revokeRequest, store: store, engine: engine, now: now, context: context) else {
                context.stderr.write("Nothing revoked.\n")
                return .notEntitled
            }
            confirmed = ids
            // The revocation happens when the person said yes, not when the question was asked.
            if !ids.isEmpty { now = max(now, CLI.storePrecision(context.clock())) }
        }
        let result = try RevokeMutation(userID: userID, request: revokeRequest, now: now)
            .run(in: store, engine: engine, dryRun: options.dryRun) { (planned) throws(EntitlementError) in
                if let confirmed { try Self.requireConfirmed(confirmed, planned: planned) }
            }
        for warning in result.warnings { context.warning(warning) }
        MutationReport.revoke(profile: result.profile, revoked: result.revoked, level: result.level, alsoAffected: result.alsoAffected,
                              dryRun: options.dryRun, json: options.json, at: now, context: context)
        return .success
    }
}
