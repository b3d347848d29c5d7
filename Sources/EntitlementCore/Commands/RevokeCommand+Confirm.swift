import FoundationEssentials

extension RevokeCommand {
    /// Shows what will be revoked (on stderr), then asks on a terminal; without one, refuses
    /// (exit 2 and a hint). True to go ahead. Nothing to revoke needs no confirmation.
    func confirm(_ revokeRequest: RevokeRequest, store: EntitlementStore, engine: StatusEngine, now: Date,
                 context: Context) throws(EntitlementError) -> Bool {
        guard let profile = try store.loadProfile(userID: userID) else { throw .unknownUser(userID) }
        try Self.requireKnown(request.entitlement, in: profile, engine: engine, configPath: store.configPath)
        let planned: Profile, ids: [String]
        do throws(RevokeError) {
            (planned, ids) = try RevokePlanner.apply(revokeRequest, to: profile, engine: engine, now: now)
        } catch {
            throw .revoke(error)
        }
        guard !ids.isEmpty else { return true }
        let preview = RevokePreview.text(user: userID, entitlement: request.entitlement, transactions: ids.compactMap { profile.transaction(id: $0) },
                                         before: engine.evaluate(request.entitlement, for: profile, at: now).accessLevel,
                                         after: engine.evaluate(request.entitlement, for: planned, at: now).accessLevel,
                                         alsoAffected: Self.alsoAffected(ids, in: planned, engine: engine, entitlement: request.entitlement), at: now)
        context.stdout.flush()
        context.stderr.write(preview)
        guard context.isInteractive else {
            throw .usage("revoke needs confirmation, and there is no terminal to ask on.",
                         hint: "Add --yes (-y) to revoke without asking, or --dry-run to only see what would be revoked.", command: Self.spec.name)
        }
        return context.confirm("Revoke \(ids.count == 1 ? "it" : "them")?")
    }
}
