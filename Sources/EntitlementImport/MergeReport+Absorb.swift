extension MergeReport {
    /// Adds what a later merge into the same profile did (a refresh merges several answers).
    package mutating func absorb(_ other: MergeReport) {
        func union<T: Equatable>(_ mine: inout [T], _ theirs: [T]) { for item in theirs where !mine.contains(item) { mine.append(item) } }
        union(&transactionsAdded, other.transactionsAdded)
        union(&transactionsUpdated, other.transactionsUpdated.filter { !transactionsAdded.contains($0) })
        union(&transactionsUnchanged, other.transactionsUnchanged.filter { !transactionsAdded.contains($0) && !transactionsUpdated.contains($0) })
        union(&renewalsAdded, other.renewalsAdded)
        union(&renewalsUpdated, other.renewalsUpdated.filter { !renewalsAdded.contains($0) })
        union(&renewalsUnchanged, other.renewalsUnchanged)
        union(&attributesSet, other.attributesSet)
        union(&attributesUnchanged, other.attributesUnchanged)
        createdProfile = createdProfile || other.createdProfile
        setProfileID = setProfileID || other.setProfileID
        warnings += other.warnings
    }
}

extension MergeReport {
    /// Nothing done yet: what a refresh starts from before it absorbs each merge.
    package static var none: MergeReport { MergeReport() }
}
