import FoundationEssentials

/// One line of a profile's audit trail: a purchase, a grant, or a revocation.
public struct HistoryEvent: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// A store purchase or renewal (the transaction's `type` says which).
        case purchase
        /// A manual grant, with actor and reason.
        case grant
        /// A refund or a support revocation.
        case revocation
        /// A support revocation undone by `restore`.
        case restore
    }

    public var at: Date
    public var kind: Kind
    public var transaction: Transaction
    public var actor: String?
    public var reason: String?
    /// Team store: the commit that recorded this event (nil in a plain store).
    var recorded: GitAudit.Commit? = nil

    /// Team store: whether the recorded actor is the commit's author (nil when either is unknown).
    var actorMatchesAuthor: Bool? {
        guard let recorded, let actor else { return nil }
        // The merge's own voiding of a duplicate names the person who synced; the merge
        // commit is theirs by construction, whatever identity git gave it.
        if recorded.isMerge, kind == .revocation, voidsDuplicate { return nil }
        return recorded.author.matches(actor: actor)
    }

    /// True for a revocation a merge made because the grant repeated another's idempotency key.
    public var voidsDuplicate: Bool { kind == .revocation && reason == Transaction.duplicateKeyReason && transaction.duplicateOf != nil }

    /// How the event's reason reads to a person: a voided duplicate says what it duplicated.
    public var reasonDescription: String? {
        guard voidsDuplicate, let original = transaction.duplicateOf else { return reason }
        return "duplicate of \(original) (same idempotency key), voided by the merge"
    }

    /// Every event of `profile`, oldest first; ties keep file order, grants before their revocation.
    public static func events(of profile: Profile) -> [HistoryEvent] {
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
        return events.sorted { $0.0.at != $1.0.at ? $0.0.at < $1.0.at : $0.1 < $1.1 }.map(\.0)
    }
}
