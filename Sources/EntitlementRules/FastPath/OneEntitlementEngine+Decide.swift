import FoundationEssentials

extension OneEntitlementEngine {
    /// `StatusEngine.decide`: the decisive candidate's position and the state, nil for never.
    func decide(_ candidates: [Candidate], known: [CheckTransaction], _ bytes: UnsafeBufferPointer<UInt8>) -> (Int, AccessState)? {
        // `max(by:)` and `min(by:)` keep the first of equal elements: replace only when strictly ordered.
        var winner: Int?
        for position in candidates.indices where candidates[position].verdict.givesAccess {
            if let current = winner, !accessOrder(candidates[current], candidates[position], known, bytes) { continue }
            winner = position
        }
        if let winner {
            if case .inGracePeriod = candidates[winner].verdict { return (winner, .gracePeriod) }
            return (winner, .active)
        }
        var next: Int?
        for position in candidates.indices {
            guard case .notStarted = candidates[position].verdict else { continue }
            if let current = next, !(known[candidates[position].index].effectiveStart < known[candidates[current].index].effectiveStart) { continue }
            next = position
        }
        if let next { return (next, .scheduled) }
        var last: Int?
        for position in candidates.indices {
            switch candidates[position].verdict {
            case .revoked, .expired, .superseded: break
            default: continue
            }
            if let current = last, !endedOrder(candidates[current], candidates[position], known, bytes) { continue }
            last = position
        }
        guard let last else { return nil }
        if case .revoked = candidates[last].verdict { return (last, .revoked) }
        return (last, .expired)
    }

    /// `StatusEngine.accessOrder`: lifetime, then the latest end, then `recencyOrder`.
    private func accessOrder(_ a: Candidate, _ b: Candidate, _ known: [CheckTransaction], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func end(_ candidate: Candidate) -> Date? {
            switch candidate.verdict {
            case .inGracePeriod(let graceUntil): return graceUntil
            case .givesAccess(let until): return until
            default: return nil
            }
        }
        return StatusEngine.endOrder(end(a), end(b))
            ?? Self.recencyOrder(known[a.index], known[a.index].expiresAt, known[b.index], known[b.index].expiresAt, bytes)
    }

    /// `StatusEngine.endedOrder`: a superseded candidate ends where it was superseded.
    private func endedOrder(_ a: Candidate, _ b: Candidate, _ known: [CheckTransaction], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func adjustedExpiry(_ candidate: Candidate) -> Date? {
            let transaction = known[candidate.index]
            guard case .superseded(let at) = candidate.verdict else { return transaction.expiresAt }
            return at ?? transaction.effectiveStart
        }
        return Self.recencyOrder(known[a.index], adjustedExpiry(a), known[b.index], adjustedExpiry(b), bytes)
    }

    /// `StatusEngine.recencyOrder`, with each transaction's expiry given.
    static func recencyOrder(_ a: CheckTransaction, _ aExpiry: Date?, _ b: CheckTransaction, _ bExpiry: Date?,
                             _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch (aExpiry, bExpiry) {
        case (nil, .some): return false
        case (.some, nil): return true
        case (let x?, let y?) where x != y: return x < y
        default:
            if a.effectiveStart != b.effectiveStart { return a.effectiveStart < b.effectiveStart }
            return lessID(a.id, b.id, bytes)
        }
    }
}
