import FoundationEssentials
import EntitlementModel

extension FlatStatusEngine {
    /// `StatusEngine.accessLevel`: the access level from the decisive candidate and its renewal info.
    func level(_ id: String, state decidedState: AccessState, decisive: OneEntitlementEngine.Candidate, candidates: [OneEntitlementEngine.Candidate],
               in flat: FlatProfile) -> AccessLevel {
        let transaction = flat.transactions[decisive.index], bytes = flat.bytes
        var state = decidedState
        let renewal = flat.renewal(of: decisive.index)
        if state == .expired, !transaction.isManualGrant, let renewal {
            if renewal.isPaused(at: flat.date) { state = .paused } else if renewal.isInBillingRetry == true { state = .billingRetry }
        }
        var level = AccessLevel(id: id, state: state)
        level.expiresAt = state == .active ? continuousEnd(until: decisive.end, candidates: candidates, in: flat) : decisive.end
        level.isLifetime = state.isActive && level.expiresAt == nil
        level.startsAt = transaction.effectiveStart
        // The first of the subscription by start (the first of equal starts, as `min(by:)`).
        let chain = flat.original[decisive.index]
        var first = decisive.index
        var firstFound = false
        for candidate in candidates where flat.original[candidate.index] == chain {
            if !firstFound || flat.transactions[candidate.index].effectiveStart < flat.transactions[first].effectiveStart {
                first = candidate.index
                firstFound = true
            }
        }
        level.activatedAt = flat.transactions[first].effectiveStart
        let firstID = flat.transactions[first].id
        level.renewedAt = ByteRangeTable.same(UnsafeBufferPointer(rebasing: bytes[firstID]), UnsafeBufferPointer(rebasing: bytes[transaction.id]))
            ? nil : transaction.purchasedAt
        if state == .revoked {
            level.revokedAt = transaction.revokedAt
            level.revocationReason = transaction.revocationReason.map { OneEntitlementEngine.text(bytes, $0) }
        }
        level.store = Store(rawValue: transaction.store.map { OneEntitlementEngine.text(bytes, $0) } ?? Store.manual.rawValue)
        level.productID = transaction.product.map { OneEntitlementEngine.text(bytes, $0) }
        level.transactionID = OneEntitlementEngine.text(bytes, transaction.id)
        level.isSandbox = transaction.isSandbox
        level.periodType = Self.periodType(of: transaction.kind)
        level.grantType = transaction.isManualGrant ? .manual : transaction.isFamilySharing ? .familySharing : transaction.hasOfferCode ? .offerCode : .purchase
        level.renewState = OneEntitlementEngine.renewState(of: transaction, renewal: renewal, state: state)
        level.applyRenewal(renewal)
        return level
    }

    /// `StatusEngine.periodType(of:)`.
    static func periodType(of kind: CheckTransaction.Kind) -> PeriodType {
        switch kind {
        case .trialStarted: return .trial
        case .introStarted, .introRenewed: return .intro
        case .manualGrant: return .promotional
        default: return .normal
        }
    }

    /// `StatusEngine.continuousEnd`: back-to-back grants and purchases that start by the end
    /// carry it on; one sweep by start.
    private func continuousEnd(until ownEnd: Date?, candidates: [OneEntitlementEngine.Candidate], in flat: FlatProfile) -> Date? {
        guard var end = ownEnd else { return nil }
        var following: [(start: Date, end: Date?)] = []
        for candidate in candidates {
            let next = flat.transactions[candidate.index]
            guard next.revokedAt == nil, !next.isConsumable, includes(next) else { continue }
            following.append((next.effectiveStart, candidate.end))
        }
        following.sort { $0.start < $1.start }
        for next in following {
            guard next.start <= end else { break }
            guard let nextEnd = next.end else { return nil }
            if nextEnd > end { end = nextEnd }
        }
        return end
    }
}
