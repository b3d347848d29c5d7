import FoundationEssentials
import EntitlementBasics
import EntitlementModel

/// Applies a grant to a profile: a pure function of (profile, request, now, new ids).
///
/// Overlap policy (docs/grants.md): a --duration grant on an entitlement that already
/// has an active or scheduled manual grant starts where the latest one ends; --until
/// sets an absolute end; --lifetime never expires. Store purchases are never touched.
package enum GrantPlanner {
    package static func apply(_ request: GrantRequest, to existing: Profile?, now: Date,
                             newTransactionID: String, newProfileID: String) throws(GrantError) -> GrantOutcome {
        if existing == nil {
            // A new profile: its id must be one the tool would show without hiding or reordering text.
            do throws(UserID.Problem) { _ = try UserID.validateNew(request.userID) } catch { throw .newUserID(error) }
        }
        var profile = existing ?? Profile(profileID: newProfileID, customerUserID: request.userID, createdAt: now)
        if let key = request.idempotencyKey, let previous = profile.transactions.first(where: { $0.idempotencyKey == key }) {
            guard previous.isManualGrant, previous.entitlement == request.entitlement else {
                let other = previous.entitlement ?? previous.productID ?? "another transaction"
                throw .idempotencyKeyReused(key: key, usedFor: other, requested: request.entitlement)
            }
            return GrantOutcome(profile: profile, transaction: previous, changed: false, createdProfile: false, extendsTransactionID: nil)
        }
        if let startsAt = request.startsAt, startsAt < now {
            throw .startsInPast(startsAt)
        }
        var start = request.startsAt ?? now
        var extends: String?
        if case .duration = request.term, request.startsAt == nil, let latest = latestOpenGrant(in: profile, entitlement: request.entitlement, now: now),
           let end = latest.expiresAt, end > start {
            start = end
            extends = latest.transactionID
        }
        let end: Date?
        switch request.term {
        case .duration(let duration): end = duration.added(to: start)
        case .until(let until): end = until
        case .lifetime: end = nil
        }
        if let end, end > latestEnd {
            throw .endsAfterLatestDate(latestEnd)
        }
        if let end, end <= start {
            throw .endsBeforeStart(end: end, start: start)
        }
        var transaction = Transaction(transactionID: newTransactionID, productID: nil, store: .manual, type: .manualGrant,
                                      purchasedAt: now, startsAt: start == now ? nil : start, expiresAt: end)
        transaction.entitlement = request.entitlement
        transaction.grantedAt = now
        transaction.grantedBy = request.actor
        transaction.reason = request.reason
        transaction.idempotencyKey = request.idempotencyKey
        profile.transactions.append(transaction)
        return GrantOutcome(profile: profile, transaction: transaction, changed: true, createdProfile: existing == nil, extendsTransactionID: extends)
    }

    /// The last instant a store date can spell (four-digit years).
    static var latestEnd: Date { ISODate.writableRange.upperBound }

    /// The manual grant of `entitlement` that ends last among those active or scheduled at `now`.
    static func latestOpenGrant(in profile: Profile, entitlement: String, now: Date) -> Transaction? {
        let open = profile.transactions.filter {
            $0.isManualGrant && $0.entitlement == entitlement && !$0.isRevoked(at: now) && ($0.expiresAt.map { $0 > now } ?? true)
        }
        if let lifetime = open.first(where: { $0.expiresAt == nil }) { return lifetime }
        return open.max { ($0.expiresAt ?? .distantFuture) < ($1.expiresAt ?? .distantFuture) }
    }
}
