import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `entitlement restore USER ENTITLEMENT`: undo a revocation made by `revoke`; nothing is deleted.
struct RestoreCommand: RunnableCommand, Equatable {
    static let spec = CommandSpec(
        name: "restore",
        abstract: "Undo a revocation made by 'entitlement revoke' (history keeps both).",
        discussion: """
            Restores the transactions of ENTITLEMENT that the latest 'revoke' took (or the one named
            with --transaction). The revocation is kept in the transaction's restored_revocations, so
            history shows the revocation and the restore, each with actor and reason. A revocation
            that came from a store (a refund in the vendor's data) cannot be restored: exit 2.
            Nothing to restore is not an error (exit 0, "changed": false).
            """,
        usage: "USER ENTITLEMENT --reason TEXT [--transaction ID] [options]",
        arguments: [
            ArgumentSpec("USER", kind: .userID, help: "The customer user id."),
            ArgumentSpec("ENTITLEMENT", kind: .entitlementID, help: "The entitlement whose revocation to undo."),
        ],
        options: [transactionOption] + MutationOptions.declarations,
        examples: ["entitlement restore alice@example.com premium --reason 'Revoked the wrong grant, ticket 981'"])

    static let transactionOption = Option<String>.string("transaction", value: "ID", kind: .transactionID, help: "Restore only this transaction.")

    var userID: String
    var entitlement: String
    var transactionID: String?
    var reason: String
    var options: MutationOptions

    init(_ parsed: ParsedArguments) throws(EntitlementError) {
        let name = Self.spec.name
        userID = try UserID.argument(parsed.positionals[0], command: name)
        entitlement = parsed.positionals[1]
        guard !entitlement.isEmpty else { throw .usage("the entitlement must not be empty.", command: name) }
        transactionID = try parsed.value(Self.transactionOption)
        guard let reason = try parsed.value(CommonOptions.reason) else {
            throw .usage("missing --reason: say why the revocation is undone (it is recorded in the history).", command: name)
        }
        self.reason = reason
        options = try MutationOptions(parsed)
    }

    func run(_ context: Context) throws(EntitlementError) -> ExitCode {
        let store = try options.store(context, command: Self.spec.name)
        let engine = StatusEngine(configuration: try store.loadConfiguration())
        let now = context.now()
        let request = RestoreRequest(entitlement: entitlement, transactionID: transactionID, reason: reason, actor: try options.resolvedActor(context, store: store))
        let result = try RestoreMutation(userID: userID, request: request, now: now).run(in: store, engine: engine, dryRun: options.dryRun)
        for warning in result.warnings { context.warning(warning) }
        let (profile, restored, level) = (result.profile, result.restored, result.level)
        if options.json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("changed", .bool(!restored.isEmpty)),
                ("dry_run", .bool(options.dryRun)),
                ("customer_user_id", .string(profile.customerUserID)),
                ("profile_id", .string(profile.profileID)),
                ("restored", .array(restored.compactMap { profile.transaction(id: $0)?.json })),
                ("access_level", .object(level.json)),
                ("evaluated_at", .string(ISODate.format(now))),
            ]))))
        } else {
            var out: String
            if restored.isEmpty {
                out = "Nothing changed: '\(Terminal.escape(profile.customerUserID))' has no revocation of \(Terminal.escape(entitlement)) to restore.\n"
            } else {
                out = "\(options.dryRun ? "Dry run: would restore" : "Restored") \(restored.count) transaction\(restored.count == 1 ? "" : "s"): \(restored.map(Terminal.escape).joined(separator: ", ")).\n"
            }
            out += "\n" + AccessLevelText.table([level], at: now, style: Style(enabled: context.useColor))
            context.stdout.write(out)
        }
        return .success
    }
}
