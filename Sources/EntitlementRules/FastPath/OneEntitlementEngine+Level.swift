import FoundationEssentials
import EntitlementJSON
import EntitlementModel

extension OneEntitlementEngine {
    /// `StatusEngine.accessLevel`: the access level from the decisive candidate and its renewal info.
    func level(_ decidedState: AccessState, decisive: Candidate, known: [CheckTransaction], candidates: [Candidate],
               renewals: [CheckRenewal], _ bytes: UnsafeBufferPointer<UInt8>, at date: Date) -> AccessLevel {
        let transaction = known[decisive.index]
        var state = decidedState
        let renewal = Self.renewal(of: transaction, renewals, bytes)
        if state == .expired, !transaction.isManualGrant, let renewal {
            if renewal.isPaused(at: date) { state = .paused } else if renewal.isInBillingRetry == true { state = .billingRetry }
        }
        var level = AccessLevel(id: entitlement, state: state)
        level.expiresAt = state == .active ? continuousEnd(until: decisive.end, known: known, candidates: candidates) : decisive.end
        level.isLifetime = state.isActive && level.expiresAt == nil
        level.startsAt = transaction.effectiveStart
        var first = transaction
        var firstSet = false
        for candidate in candidates where ByteCursor.same(bytes, known[candidate.index].original, transaction.original) {
            let other = known[candidate.index]
            if !firstSet || other.effectiveStart < first.effectiveStart { first = other; firstSet = true }
        }
        level.activatedAt = first.effectiveStart
        level.renewedAt = ByteCursor.same(bytes, first.id, transaction.id) ? nil : transaction.purchasedAt
        if state == .revoked {
            level.revokedAt = transaction.revokedAt
            level.revocationReason = transaction.revocationReason.map { Self.text(bytes, $0) }
        }
        level.store = Store(rawValue: transaction.store.map { Self.text(bytes, $0) } ?? Store.manual.rawValue)
        level.productID = transaction.product.map { Self.text(bytes, $0) }
        level.transactionID = Self.text(bytes, transaction.id)
        level.isSandbox = transaction.isSandbox
        switch transaction.kind {
        case .trialStarted: level.periodType = .trial
        case .introStarted, .introRenewed: level.periodType = .intro
        case .manualGrant: level.periodType = .promotional
        default: level.periodType = .normal
        }
        level.grantType = transaction.isManualGrant ? .manual : transaction.isFamilySharing ? .familySharing : transaction.hasOfferCode ? .offerCode : .purchase
        level.renewState = Self.renewState(of: transaction, renewal: renewal, state: state)
        level.applyRenewal(renewal)
        return level
    }

    /// `StatusEngine.continuousEnd`: later grants and purchases that start by the end carry it on.
    private func continuousEnd(until ownEnd: Date?, known: [CheckTransaction], candidates: [Candidate]) -> Date? {
        guard var end = ownEnd else { return nil }
        var extended = true
        while extended {
            extended = false
            for candidate in candidates {
                let next = known[candidate.index]
                guard next.revokedAt == nil, !next.isConsumable, includes(next), next.effectiveStart <= end else { continue }
                guard let nextEnd = candidate.end else { return nil }
                if nextEnd > end { end = nextEnd; extended = true }
            }
        }
        return end
    }

    /// `StatusEngine.renewState`.
    static func renewState(of transaction: CheckTransaction, renewal: CheckRenewal?, state: AccessState) -> RenewState {
        if transaction.isManualGrant || transaction.kind == .nonConsumablePurchase || transaction.expiresAt == nil { return .nonRenewable }
        guard let renewal else { return .unknown }
        // In grace or billing retry the store is still trying to charge: that outlook wins over
        // a `will_renew` false that a vendor derives from the billing issue itself (RevenueCat).
        if state == .gracePeriod || state == .billingRetry { return .billingIssue }
        if renewal.willRenew == false || (renewal.willRenew == nil && renewal.unsubscribedAt != nil) { return .canceled }
        if renewal.billingIssueDetectedAt != nil || renewal.isInBillingRetry == true || state == .gracePeriod { return .billingIssue }
        if renewal.willRenew == true { return .willRenew }
        return .unknown
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        ScannedFields.makeString(range, bytes)
    }
}

extension CheckProfileScanner {
    /// `Profile.asKnown(at:)` in place: what was recorded after `date` is left out or undone.
    mutating func makeKnown(at date: Date, _ bytes: UnsafeBufferPointer<UInt8>) {
        var laterChains: [(store: Range<Int>?, original: Range<Int>)] = []
        var kept = 0
        for index in transactions.indices {
            var transaction = transactions[index]
            if transaction.recordedAt > date {
                if !transaction.isManualGrant { laterChains.append((transaction.store, transaction.original)) }
                continue
            }
            if let revokedAt = transaction.revokedAt, revokedAt > date {
                transaction.revokedAt = nil
                transaction.revocationReason = nil
            }
            transactions[kept] = transaction
            kept += 1
        }
        transactions.removeSubrange(kept...)
        // `is_upgraded` was learnt with the replacing transaction, when that one is in the same chain (store and original id).
        if !laterChains.isEmpty {
            for index in transactions.indices where transactions[index].isUpgraded == true
                && laterChains.contains(where: { Self.sameStore(bytes, $0.store, transactions[index].store) && ByteCursor.same(bytes, $0.original, transactions[index].original) }) {
                transactions[index].isUpgraded = nil
            }
        }
        for index in renewals.indices {
            if let unsubscribedAt = renewals[index].unsubscribedAt, unsubscribedAt > date {
                renewals[index].unsubscribedAt = nil
                if renewals[index].willRenew == false { renewals[index].willRenew = true }
            }
            if let detected = renewals[index].billingIssueDetectedAt, detected > date {
                renewals[index].billingIssueDetectedAt = nil
                renewals[index].gracePeriodExpiresAt = nil
                if renewals[index].isInBillingRetry == true { renewals[index].isInBillingRetry = false }
            }
            if let pausedAt = renewals[index].pausedAt, pausedAt > date {
                renewals[index].pausedAt = nil
                renewals[index].resumesAt = nil
                if renewals[index].isPaused == true { renewals[index].isPaused = false }
            }
        }
    }
}
