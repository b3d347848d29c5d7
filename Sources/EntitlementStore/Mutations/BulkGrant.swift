import FoundationEssentials
import Synchronization
import EntitlementBasics
import EntitlementModel
import EntitlementRules

/// `grant --stdin`: one grant per customer id, all under one lock.
///
/// Without `allOrNothing`, grants are committed in batches of `commitLines` lines (each
/// batch all or nothing through the store's journal, made durable by one file-system sync),
/// and a failing id does not stop the others. A batch is committed in the background while
/// the next one is planned; its results are emitted once its commit is done. With it, every change goes into one commit,
/// made only if every line is valid and every grant succeeds; otherwise nothing is written.
package struct BulkGrant {
    /// One line's result.
    package struct Result: Sendable {
        package var line: BulkGrantLine
        package var outcome: GrantOutcome?
        package var level: AccessLevel?
        package var error: EntitlementError?

        package init(line: BulkGrantLine, outcome: GrantOutcome? = nil, level: AccessLevel? = nil, error: EntitlementError? = nil) {
            self.line = line
            self.outcome = outcome
            self.level = level
            self.error = error
        }
    }

    /// Totals for the summary.
    package struct Totals: Equatable, Sendable {
        package var granted = 0, createdProfiles = 0, unchanged = 0, duplicates = 0, failed = 0
        var written = false

        package init() {}
    }

    let store: EntitlementStore
    let engine: StatusEngine
    /// The grant to make; its `userID` is replaced per line.
    let template: GrantRequest
    let now: Date
    let newID: @Sendable () -> String
    var dryRun = false
    var allOrNothing = false
    /// Lines planned at a time (on every core).
    var batchSize = 1000
    /// A commit is made once this many lines, or this many bytes of files, are pending:
    /// each commit costs a file-system sync, whose fixed cost dominates small batches.
    var commitLines = 10_000
    var commitBytes = 32 << 20
    /// A team store's commit message and author: one commit for the whole run.
    var change: ChangeDescription? = nil

    package init(store: EntitlementStore, engine: StatusEngine, template: GrantRequest, now: Date, newID: @escaping @Sendable () -> String,
                 dryRun: Bool = false, allOrNothing: Bool = false, batchSize: Int = 1000, commitLines: Int = 10_000,
                 commitBytes: Int = 32 << 20, change: ChangeDescription? = nil) {
        self.dryRun = dryRun
        self.allOrNothing = allOrNothing
        self.batchSize = batchSize
        self.commitLines = commitLines
        self.commitBytes = commitBytes
        self.store = store
        self.engine = engine
        self.template = template
        self.now = now
        self.newID = newID
        self.change = change
    }

    /// Runs every line; `emit` gets each result after it is written (or planned), in input order.
    package func run(_ lines: [BulkGrantLine], progress: (Int) -> Void = { _ in },
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
        let planner = BulkGrantPlan(store: store, engine: engine, template: template, now: now, dryRun: dryRun)
        var pending: [Result] = []
        var changes: [EntitlementStore.FileChange] = []
        var pendingBytes = 0
        // The commit of one batch runs in the background while the next batch is planned:
        // its file-system sync waits for the disk, and its renames run on one core.
        var inFlight: (commit: BackgroundCommit, results: [Result])?
        defer { inFlight?.commit.wait() }  // never leave a commit running on a thrown error
        func finishInFlight() throws(EntitlementError) {
            guard let (commit, results) = inFlight else { return }
            inFlight = nil
            try commit.result().get()
            totals.written = true
            results.forEach(emit)
        }
        func flush() throws(EntitlementError) {
            try finishInFlight()
            pendingBytes = 0
            if changes.isEmpty {
                pending.forEach(emit)
            } else {
                inFlight = (BackgroundCommit(store: store, changes: changes), pending)
                changes = []
            }
            pending = []
        }
        // Chunks of `batchSize` lines, each planned on every core; unless all-or-nothing,
        // what is pending is committed as one batch once it reaches the commit size.
        // The next chunk's profiles are read ahead while this one is planned: on a cold
        // cache, the reads of a chunk are then in flight together rather than two at a time.
        var prefetch: WorkerThread?
        defer { prefetch?.wait() }
        var start = 0
        while start < lines.count {
            let end = min(start + max(batchSize, 1), lines.count)
            prefetch?.wait()
            prefetch = readAhead(lines[end..<min(end + max(batchSize, 1), lines.count)])
            for planned in planner.plan(Array(lines[start..<end]), newID: newID) {
                var result = planned.result
                if result.line.problem != nil {
                    result.error = lineError(result.line)
                    totals.failed += 1
                } else if result.line.duplicateOf != nil {
                    totals.duplicates += 1
                } else if result.error != nil {
                    totals.failed += 1
                } else if let outcome = result.outcome {
                    if outcome.changed { totals.granted += 1 } else { totals.unchanged += 1 }
                    if outcome.createdProfile { totals.createdProfiles += 1 }
                }
                changes += planned.changes
                pendingBytes += planned.changes.reduce(0) { $0 + $1.bytes.count }
                pending.append(result)
            }
            if !allOrNothing, pending.count >= commitLines || pendingBytes >= commitBytes { try flush() }
            progress(end)
            start = end
        }
        progress(lines.count)
        if allOrNothing, totals.failed > 0 {
            // Nothing is written: report only what failed, so the input can be fixed.
            pending.filter { $0.error != nil }.forEach(emit)
            return totals
        }
        try flush()
        try finishInFlight()
        return totals
    }

    /// Starts reading `lines`' existing profiles into the page cache on a background thread.
    private func readAhead(_ lines: ArraySlice<BulkGrantLine>) -> WorkerThread? {
        let paths = lines.compactMap { line in line.problem == nil && line.duplicateOf == nil ? line.userID.map(store.profilePath) : nil }
        guard !paths.isEmpty else { return nil }
        let fileSystem = store.fileSystem
        // Only a hint: when no thread can be started, the reads simply find a colder cache.
        return WorkerThread.start { fileSystem.prefetch(paths) }
    }

    func lineError(_ line: BulkGrantLine) -> EntitlementError { Self.lineError(line) }

    /// A refused line, as its report and exit code (2) say it.
    package static func lineError(_ line: BulkGrantLine) -> EntitlementError {
        .usage("line \(line.number): \(line.problem ?? "invalid line").", command: "grant")
    }
}

extension EntitlementStore {
    /// The file changes that save `profile`: its file, and its profile-id index entry when
    /// that changes. When `previous` (the profile as it was read) had the same profile id,
    /// the entry was written with it and is not read again: for a bulk grant into an
    /// existing store, that read is one more file per customer, often from the disk.
    func changes(saving profile: Profile, previous: Profile?) throws(EntitlementError) -> [FileChange] {
        var changes = [try profileChange(profile)]
        if let profileID = profile.profileID, !profileID.isEmpty, previous.map({ $0.profileID != profileID }) ?? true {
            let indexPath = profileIDIndexPath(for: profileID)
            let userID = Array(profile.customerUserID.utf8)
            if (try? fileSystem.readFile(indexPath)) ?? nil != userID {
                changes.append(FileChange(path: relativeProfileIDIndexPath(for: profileID), bytes: userID))
            }
        }
        return changes
    }
}

/// One `commit(_:syncOnce: true)` on a background thread; `result()` waits for it.
private final class BackgroundCommit: Sendable {
    private let outcome = Mutex<Swift.Result<Void, EntitlementError>?>(nil)
    private let thread = Mutex<WorkerThread?>(nil)

    init(store: EntitlementStore, changes: [EntitlementStore.FileChange]) {
        let commit: @Sendable () -> Void = { [self] in
            let result = Swift.Result { () throws(EntitlementError) in _ = try store.commit(changes, syncOnce: true) }
            outcome.withLock { $0 = result }
        }
        // No thread to be had: the commit is made now, before the next batch is planned.
        let started = WorkerThread.startOrRun(commit)
        thread.withLock { $0 = started }
    }

    func wait() { thread.withLock { $0 }?.wait() }

    func result() -> Swift.Result<Void, EntitlementError> {
        wait()
        return outcome.withLock { $0 } ?? .success(())
    }
}
