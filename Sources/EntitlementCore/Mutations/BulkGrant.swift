import FoundationEssentials

/// `grant --stdin`: one grant per customer id, all under one lock.
///
/// Without `allOrNothing`, grants are committed in batches of `batchSize` profiles (each
/// batch all or nothing through the store's journal, made durable by one file-system sync),
/// and a failing id does not stop the others. With it, every change goes into one commit,
/// made only if every line is valid and every grant succeeds; otherwise nothing is written.
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
    /// A team store's commit message and author: one commit for the whole run.
    var change: ChangeDescription? = nil

    /// Runs every line; `emit` gets each result after it is written (or planned), in input order.
    func run(_ lines: [BulkGrantLine], progress: (Int) -> Void = { _ in },
             emit: (Result) -> Void) throws(EntitlementError) -> Totals {
        var totals = Totals()
        let bad = lines.filter { $0.problem != nil }
        if allOrNothing, !bad.isEmpty {
            for line in bad { totals.failed += 1; emit(Result(line: line, error: lineError(line))) }
            return totals
        }
        if dryRun { return try apply(lines, totals: &totals, progress: progress, emit: emit) }
        return try store.withWriteLock(change) { () throws(EntitlementError) -> Totals in
            try apply(lines, totals: &totals, progress: progress, emit: emit)
        }
    }

    private func apply(_ lines: [BulkGrantLine], totals: inout Totals, progress: (Int) -> Void,
                       emit: (Result) -> Void) throws(EntitlementError) -> Totals {
        var pending: [Result] = []
        var changes: [EntitlementStore.FileChange] = []
        func flush() throws(EntitlementError) {
            if !changes.isEmpty {
                try store.commit(changes, syncOnce: true)
                totals.written = true
                changes.removeAll(keepingCapacity: true)
            }
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
                    let existing = try store.loadProfile(userID: userID)
                    let outcome: GrantOutcome
                    do throws(GrantError) {
                        outcome = try GrantPlanner.apply(request, to: existing, now: now, newTransactionID: "manual-" + newID(), newProfileID: newID())
                    } catch {
                        throw .grant(error)
                    }
                    if outcome.changed, !dryRun { changes += try store.changes(saving: outcome.profile) }
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

extension EntitlementStore {
    /// The file changes that save `profile`: its file, and its profile-id index entry when that changes.
    func changes(saving profile: Profile) throws(EntitlementError) -> [FileChange] {
        var changes = [try profileChange(profile)]
        if let profileID = profile.profileID, !profileID.isEmpty {
            let indexPath = profileIDIndexPath(for: profileID)
            let userID = Array(profile.customerUserID.utf8)
            if (try? fileSystem.readFile(indexPath)) ?? nil != userID {
                changes.append(FileChange(path: relativeProfileIDIndexPath(for: profileID), bytes: userID))
            }
        }
        return changes
    }
}
