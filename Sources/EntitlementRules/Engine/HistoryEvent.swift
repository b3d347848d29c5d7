import FoundationEssentials
import EntitlementModel

/// One line of a profile's audit trail: a purchase, a grant, or a revocation.
package struct HistoryEvent: Equatable, Sendable {
    package enum Kind: String, Sendable {
        /// A store purchase or renewal (the transaction's `type` says which).
        case purchase
        /// A manual grant, with actor and reason.
        case grant
        /// A refund or a support revocation.
        case revocation
        /// A support revocation undone by `restore`.
        case restore
        /// A purchase moved to or from another customer (`transfer`, RevenueCat `TRANSFER`):
        /// the profile's `transfers` list, read by `HistoryEvent+Transfer.swift`.
        case transfer
    }

    package var at: Date
    package var kind: Kind
    package var transaction: Transaction
    package var actor: String?
    package var reason: String?
    /// For a transfer: which way, and the other customer.
    package var transfer: TransferSide?

    /// True for a revocation a merge made because the grant repeated another's idempotency key.
    package var voidsDuplicate: Bool { kind == .revocation && reason == Transaction.duplicateKeyReason && transaction.duplicateOf != nil }

    /// How the event's reason reads to a person: a voided duplicate says what it duplicated.
    package var reasonDescription: String? {
        guard voidsDuplicate, let original = transaction.duplicateOf else { return reason }
        return "duplicate of \(original) (same idempotency key), voided by the merge"
    }

    /// Every event of `profile`, oldest first; ties keep file order, grants before their revocation.
    package static func events(of profile: Profile) -> [HistoryEvent] {
        var events: [(HistoryEvent, Int)] = []
        for (index, transaction) in profile.transactions.enumerated() {
            if transaction.isManualGrant {
                events.append((HistoryEvent(at: transaction.grantedAt ?? transaction.purchasedAt, kind: .grant, transaction: transaction,
                                            actor: transaction.grantedBy, reason: transaction.reason), index * 2))
            } else {
                events.append((HistoryEvent(at: transaction.purchasedAt, kind: .purchase, transaction: transaction, actor: nil, reason: nil), index * 2))
            }
            for undone in !transaction.holdsRestoredRevocations ? [] : transaction.restoredRevocations {
                events.append((HistoryEvent(at: undone.revokedAt, kind: .revocation, transaction: transaction,
                                            actor: undone.revokedBy, reason: undone.revocationReason), index * 2 + 1))
                events.append((HistoryEvent(at: undone.restoredAt, kind: .restore, transaction: transaction,
                                            actor: undone.restoredBy, reason: undone.restoreReason), index * 2 + 1))
            }
            if let revokedAt = transaction.revokedAt {
                events.append((HistoryEvent(at: revokedAt, kind: .revocation, transaction: transaction,
                                            actor: transaction.revokedBy, reason: transaction.revocationReason), index * 2 + 1))
            }
        }
        // After every other event of the same instant, in the order the list records them.
        events += transferEvents(of: profile).enumerated().map { ($1, profile.transactions.count * 2 + $0) }
        return events.sorted { $0.0.at != $1.0.at ? $0.0.at < $1.0.at : $0.1 < $1.1 }.map(\.0)
    }
}
