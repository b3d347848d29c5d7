import FoundationEssentials
import EntitlementBasics
import EntitlementModel

extension StatusEngine {
    /// Fills the access level from the decisive transaction and its renewal info.
    ///
    /// An expired subscription is `paused` while its renewal info holds a pause at `date`
    /// (before `resumes_at`), else `billing_retry` while the store retries the charge: both
    /// are facts of the subscription, not of one transaction. The byte-level twin is
    /// `OneEntitlementEngine.level`.
    func accessLevel(_ id: String, state: AccessState, decisive: Consideration, candidates: [Transaction], profile: Profile, at date: Date,
                     supersessions: [Supersession.Key: Supersession] = [:]) -> AccessLevel {
        let transaction = decisive.transaction
        var state = state
        let renewal = profile.renewal(for: transaction)
        if state == .expired, transaction.type != .manualGrant, let renewal {
            if renewal.isPaused(at: date) { state = .paused } else if renewal.isInBillingRetry == true { state = .billingRetry }
        }
        var level = AccessLevel(id: id, state: state)
        let ownEnd = Supersession.end(of: transaction, Supersession.lookup(transaction, in: supersessions))
        level.expiresAt = state == .active ? continuousEnd(from: transaction, until: ownEnd, candidates: candidates, supersessions: supersessions) : ownEnd
        level.isLifetime = state.isActive && level.expiresAt == nil
        level.startsAt = transaction.effectiveStart
        counter.add(candidates.count)
        let chain = candidates.filter { $0.originalTransactionID == transaction.originalTransactionID }
        let first = chain.min { $0.effectiveStart < $1.effectiveStart } ?? transaction
        level.activatedAt = first.effectiveStart
        level.renewedAt = first.transactionID == transaction.transactionID ? nil : transaction.purchasedAt
        if state == .revoked {
            level.revokedAt = transaction.revokedAt
            level.revocationReason = transaction.revocationReason
            // Revoked then, by a revocation that was restored later: that revocation's facts.
            if case .revoked(let at) = decisive.verdict, at != transaction.revokedAt,
               let undone = transaction.restoredRevocations.first(where: { $0.revokedAt == at }) {
                level.revokedAt = undone.revokedAt
                level.revocationReason = undone.revocationReason
            }
        }
        level.store = transaction.store
        level.productID = transaction.productID
        level.transactionID = transaction.transactionID
        level.isSandbox = transaction.environment == .sandbox
        level.periodType = Self.periodType(of: transaction)
        level.grantType = Self.grantType(of: transaction)
        level.renewState = Self.renewState(of: transaction, renewal: renewal, state: state)
        level.applyRenewal(renewal)
        return level
    }

    /// When access from `transaction` really ends: back-to-back grants and purchases
    /// that start by the time the previous one ends carry it on (a chained grant).
    /// A superseded transaction carries the end on only until it was superseded.
    func continuousEnd(from transaction: Transaction, until ownEnd: Date?, candidates: [Transaction],
                       supersessions: [Supersession.Key: Supersession] = [:]) -> Date? {
        guard var end = ownEnd else { return nil }
        // By start, one sweep reaches the fixed point that repeated passes reached (quadratic
        // on a long chain): once one starts after the end, every later one does too.
        var following: [(start: Date, end: Date?)] = []
        for next in candidates where next.revokedAt == nil && !next.type.is(.consumablePurchase) && environment.includes(next.environment) {
            following.append((next.effectiveStart, Supersession.end(of: next, Supersession.lookup(next, in: supersessions))))
        }
        counter.add(candidates.count)
        following.sort { counter.add(1); return $0.start < $1.start }
        for next in following {
            counter.add(1)
            guard next.start <= end else { break }
            guard let nextEnd = next.end else { return nil }
            if nextEnd > end { end = nextEnd }
        }
        return end
    }

    package static func periodType(of transaction: Transaction) -> PeriodType {
        switch transaction.type {
        case .trialStarted: return .trial
        case .introStarted, .introRenewed: return .intro
        case .manualGrant: return .promotional
        default: return .normal
        }
    }

    static func grantType(of transaction: Transaction) -> GrantType {
        if transaction.isManualGrant { return .manual }
        if transaction.ownershipType == .familySharing { return .familySharing }
        if let code = transaction.offerCode, !code.isEmpty { return .offerCode }
        return .purchase
    }

    /// Manual grants, one-time purchases and lifetime access never renew;
    /// otherwise the subscription's renewal info decides.
    static func renewState(of transaction: Transaction, renewal: RenewalInfo?, state: AccessState) -> RenewState {
        if transaction.isManualGrant || transaction.type == .nonConsumablePurchase || transaction.expiresAt == nil {
            return .nonRenewable
        }
        guard let renewal else { return .unknown }
        // In grace or billing retry the store is still trying to charge: that outlook wins over
        // a `will_renew` false that a vendor derives from the billing issue itself (RevenueCat).
        if state == .gracePeriod || state == .billingRetry { return .billingIssue }
        if renewal.willRenew == false || (renewal.willRenew == nil && renewal.unsubscribedAt != nil) { return .canceled }
        if renewal.billingIssueDetectedAt != nil || renewal.isInBillingRetry == true || state == .gracePeriod { return .billingIssue }
        if renewal.willRenew == true { return .willRenew }
        return .unknown
    }
}
