import FoundationEssentials

/// `grant --stdin`: one grant per customer id, all under one lock.
///
/// Without `allOrNothing`, grants are written in batches (`batchSize` profiles made durable
/// by one sync), and a failing id does not stop the others. With it, every change is staged
/// first and committed as one `ProfileWriteBatch`, and nothing is written unless every line
/// is valid and every grant succeeds.
struct BulkGrant {
    /// One line's result.
    struct Result: Sendable {
        var line: BulkGrantLine
        var outcome: GrantOutcome?
        var level: AccessLevel?
        var error: EntitlementError?
    }

    /// Totals for the summary.
    struct Totals: Equatable, Sendable {
        var granted = 0, createdProfiles = 0, unchanged = 0, duplicates = 0, failed = 0
        var written = false
    }

    let store: EntitlementStore
    let engine: StatusEngine
    /// The grant to make; its `userID` is replaced per line.
    let template: GrantRequest
    let now: Date
    let newID: @Sendable () -> String
    var dryRun = false
    var allOrNothing = false
    var batchSize = 1000

    /// Runs every line; `emit` gets each result after it is written (or planned), in input order.
    func run(_ lines: [BulkGrantLine], progress: (Int) -> Void = { _ in },
             emit: (Result) -> Void) throws(EntitlementError) -> Totals {
        var totals = Totals()
        let bad = lines.filter { $0.problem != nil }
        if allOrNothing, !bad.isEmpty {
            for line in bad { totals.failed += 1; emit(Result(line: line, error: lineError(line))) }
            return totals
        }
        if dryRun { return try apply(lines, batch: nil, totals: &totals, progress: progress, emit: emit) }
        return try store.withWriteLock { () throws(EntitlementError) -> Totals in
            let batch = ProfileWriteBatch(store: store)
            defer { batch.discard() }
            let result = try apply(lines, batch: batch, totals: &totals, progress: progress, emit: emit)
            return result
        }
    }

    private func apply(_ lines: [BulkGrantLine], batch: ProfileWriteBatch?, totals: inout Totals, progress: (Int) -> Void,
                       emit: (Result) -> Void) throws(EntitlementError) -> Totals {
        var pending: [Result] = []
        func flush() throws(EntitlementError) {
            if let batch, !batch.isEmpty { try batch.commit(); totals.written = true }
            pending.forEach(emit)
            pending.removeAll(keepingCapacity: true)
        }
        for (index, line) in lines.enumerated() {
            var result = Result(line: line)
            if line.problem != nil {
                result.error = lineError(line)
                totals.failed += 1
            } else if line.duplicateOf != nil {
                totals.duplicates += 1
            } else if let userID = line.userID {
                do throws(EntitlementError) {
                    var request = template
                    request.userID = userID
                    let outcome = try GrantPlanner.apply(request, to: store.loadProfile(userID: userID), now: now,
                                                         newTransactionID: "manual-" + newID(), newProfileID: newID())
                    if outcome.changed { try batch?.stage(outcome.profile) }
                    result.outcome = outcome
                    result.level = engine.evaluate(template.entitlement, for: outcome.profile, at: now).accessLevel
                    if outcome.changed { totals.granted += 1 } else { totals.unchanged += 1 }
                    if outcome.createdProfile { totals.createdProfiles += 1 }
                } catch {
                    result.error = error
                    totals.failed += 1
                }
            }
            pending.append(result)
            if !allOrNothing, pending.count >= batchSize { try flush(); progress(index + 1) }
        }
        progress(lines.count)
        if allOrNothing, totals.failed > 0 {
            // Nothing is written: report only what failed, so the input can be fixed.
            batch?.discard()
            pending.filter { $0.error != nil }.forEach(emit)
            return totals
        }
        try flush()
        return totals
    }

    func lineError(_ line: BulkGrantLine) -> EntitlementError {
        .usage("line \(line.number): \(line.problem ?? "invalid line").", command: "grant")
    }
}
