import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules
import EntitlementStore

extension RevokeCommand {
    /// Shows what will be revoked (on stderr), then asks on a terminal; without one, refuses
    /// (exit 2 and a hint). The ids shown, to go ahead with; nil when the person said no.
    /// Nothing to revoke needs no confirmation (an empty list).
    func confirm(_ revokeRequest: RevokeRequest, store: EntitlementStore, engine: StatusEngine, now: Date,
                 context: Context) throws(EntitlementError) -> [String]? {
        let planned = try RevokeMutation(userID: userID, request: revokeRequest, now: now).run(in: store, engine: engine, dryRun: true)
        let ids = planned.revoked
        guard !ids.isEmpty else { return [] }
        let preview = RevokePreview.text(user: userID, entitlement: request.entitlement, transactions: ids.compactMap { planned.before.transaction(id: $0) },
                                         before: planned.levelBefore, after: planned.level, alsoAffected: planned.alsoAffected, at: now)
        context.stdout.flush()
        context.stderr.write(preview)
        guard context.isInteractive else {
            throw .usage("revoke needs confirmation, and there is no terminal to ask on.",
                         hint: "Add --yes (-y) to revoke without asking, or --dry-run to only see what would be revoked.", command: Self.spec.name)
        }
        return context.confirm("Revoke \(ids.count == 1 ? "it" : "them")?") ? ids : nil
    }

    /// After a confirmation, the plan made under the lock must be the one shown: else
    /// nothing is revoked (exit 2), since the person agreed to something else.
    static func requireConfirmed(_ shown: [String], planned: [String]) throws(EntitlementError) {
        guard Set(shown) != Set(planned) else { return }
        func list(_ ids: [String]) -> String { ids.isEmpty ? "nothing" : ids.sorted().map(Terminal.escape).joined(separator: ", ") }
        throw .usage("what revoke would do changed while it waited for confirmation: it showed \(list(shown)), it would now revoke \(list(planned)). Nothing revoked.",
                     hint: "Run the command again to see what it would revoke now.", command: spec.name)
    }
}
