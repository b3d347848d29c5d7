import FoundationEssentials
import EntitlementModel

/// What `revoke` was asked to do.
package struct RevokeRequest: Equatable, Sendable {
    package var entitlement: String
    /// Revoke this one transaction only.
    package var transactionID: String?
    /// Also revoke store purchases (support handled a refund outside the store).
    package var includeStore: Bool
    package var reason: String?
    package var actor: String

    package init(entitlement: String, transactionID: String? = nil, includeStore: Bool = false, reason: String? = nil, actor: String) {
        self.entitlement = entitlement
        self.transactionID = transactionID
        self.includeStore = includeStore
        self.reason = reason
        self.actor = actor
    }
}

/// Sets `revoked_at` on the transactions a revoke covers; never deletes anything.
package enum RevokePlanner {
    /// The reason recorded when none is given.
    static let defaultReason = "revoked by support"

    /// Returns the changed profile and the ids of the transactions it revoked (empty: nothing changed).
    package static func apply(_ request: RevokeRequest, to profile: Profile, engine: StatusEngine, now: Date) throws(RevokeError) -> (Profile, [String]) {
        var profile = profile
        let targets: [Int]
        if let id = request.transactionID {
            guard let index = profile.transactions.firstIndex(where: { $0.transactionID == id }) else {
                throw .transactionNotFound(id: id, user: profile.customerUserID)
            }
            let transaction = profile.transactions[index]
            guard engine.transaction(transaction, unlocks: request.entitlement) else {
                throw .transactionDoesNotGrant(id: id, entitlement: request.entitlement)
            }
            if !transaction.isManualGrant, !request.includeStore {
                throw .storePurchaseNeedsIncludeStore(id: id, store: transaction.store.rawValue)
            }
            targets = transaction.isRevoked(at: now) ? [] : [index]
        } else {
            targets = profile.transactions.indices.filter { index in
                let transaction = profile.transactions[index]
                guard transaction.isManualGrant || request.includeStore else { return false }
                guard transaction.type != .consumablePurchase, engine.transaction(transaction, unlocks: request.entitlement) else { return false }
                return transaction.revokedAt == nil && (transaction.expiresAt.map { $0 > now } ?? true)
            }
        }
        for index in targets {
            profile.transactions[index].revokedAt = now
            profile.transactions[index].revokedBy = request.actor
            profile.transactions[index].revocationReason = request.reason ?? defaultReason
        }
        return (profile, targets.map { profile.transactions[$0].transactionID })
    }
}
