import FoundationEssentials
import EntitlementModel

/// What `restore` was asked to do.
package struct RestoreRequest: Equatable, Sendable {
    package var entitlement: String
    /// Restore this one transaction only.
    package var transactionID: String?
    package var reason: String
    package var actor: String

    package init(entitlement: String, transactionID: String? = nil, reason: String, actor: String) {
        self.entitlement = entitlement
        self.transactionID = transactionID
        self.reason = reason
        self.actor = actor
    }
}

/// Undoes revocations made by `entitlement revoke`; never deletes anything.
///
/// The revocation moves into the transaction's `restored_revocations` with the restore's
/// actor, reason and time, and `revoked_at` is cleared. A revocation that came from a
/// store (a refund in the vendor's data, which has no `revoked_by`) is never restored.
package enum RestorePlanner {
    /// Returns the changed profile and the ids of the transactions restored (empty: nothing to do).
    package static func apply(_ request: RestoreRequest, to profile: Profile, engine: StatusEngine, now: Date) throws(EntitlementError) -> (Profile, [String]) {
        var profile = profile
        let targets: [Int]
        if let id = request.transactionID {
            guard let index = profile.transactions.firstIndex(where: { $0.transactionID == id }) else {
                throw .revoke(.transactionNotFound(id: id, user: profile.customerUserID))
            }
            let transaction = profile.transactions[index]
            guard engine.transaction(transaction, unlocks: request.entitlement) else {
                throw .revoke(.transactionDoesNotGrant(id: id, entitlement: request.entitlement))
            }
            guard transaction.revokedAt != nil else { return (profile, []) }
            guard transaction.revokedBy != nil else { throw storeRevocation(transaction) }
            targets = [index]
        } else {
            let revoked = profile.transactions.indices.filter {
                profile.transactions[$0].revokedAt != nil && engine.transaction(profile.transactions[$0], unlocks: request.entitlement)
            }
            let byTool = revoked.filter { profile.transactions[$0].revokedBy != nil }
            guard let latest = byTool.compactMap({ profile.transactions[$0].revokedAt }).max() else {
                if let first = revoked.first { throw storeRevocation(profile.transactions[first]) }
                return (profile, [])
            }
            // One `revoke` stamps every transaction it takes with the same instant.
            targets = byTool.filter { profile.transactions[$0].revokedAt == latest }
        }
        for index in targets {
            var transaction = profile.transactions[index]
            var history = transaction.restoredRevocations
            history.append(RestoredRevocation(revokedAt: transaction.revokedAt!, revokedBy: transaction.revokedBy,
                                              revocationReason: transaction.revocationReason, restoredAt: now,
                                              restoredBy: request.actor, restoreReason: request.reason))
            transaction.restoredRevocations = history
            transaction.revokedAt = nil
            transaction.revokedBy = nil
            transaction.revocationReason = nil
            profile.transactions[index] = transaction
        }
        return (profile, targets.map { profile.transactions[$0].transactionID })
    }

    static func storeRevocation(_ transaction: Transaction) -> EntitlementError {
        .restore(.storeRevocation(transactionID: transaction.transactionID, store: transaction.store.rawValue))
    }
}
