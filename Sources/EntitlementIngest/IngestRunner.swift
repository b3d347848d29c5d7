import FoundationEssentials
import Synchronization
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Reads units into events (no lock) and applies them in batches under the store lock, each
/// batch in one journal (and, in a team store, one commit). Idempotent and resumable: a
/// spooled unit is removed only after its events are in the ledger.
package struct IngestRunner: Sendable {
    package let store: EntitlementStore
    package let authenticator: WebhookAuthenticator
    /// The author of a team store's commits (`ENTITLEMENT_INGEST_ACTOR`, `--actor`).
    package var actor: String
    /// Events per journal: bounds memory and the work a kill can undo.
    var batchSize = 500
    /// Whether an App Store notification without `appAccountToken` whose original transaction
    /// the index does not place may sweep the profiles for it (`AppStoreCustomerIndex`).
    var sweepsForCustomers = true
    /// Whether a spooled unit whose file is gone once the batch holds the lock is left out:
    /// another run applied it meanwhile (webhooks apply each other's waiting requests).
    var skipsHandledSpoolFiles = false

    package init(store: EntitlementStore, authenticator: WebhookAuthenticator, actor: String) {
        self.store = store
        self.authenticator = authenticator
        self.actor = actor
    }

    /// The events of one unit, or the outcome that stops it (unsupported vendor, malformed, unauthenticated).
    package func parse(_ unit: IngestUnit) -> ParsedUnit {
        guard let adapter = VendorTable.adapter(for: unit.request.vendor) else {
            return .refused(.unsupported("\(unit.request.vendor.displayName) events are not read by this version"))
        }
        do throws(EventRejection) {
            return .events(try adapter.events(in: unit.request, with: authenticator))
        } catch {
            switch error {
            case .malformed(let why): return .refused(.malformed(DocumentBody.refusal(unit.request.body) ?? why))
            case .unauthenticated(let why): return .refused(.unauthenticated(why))
            }
        }
    }

    /// A unit read: its events, or the outcome that refused it.
    package enum ParsedUnit: Sendable {
        case events([IngestEvent])
        case refused(EventOutcome)
    }

    /// Applies every unit; `progress` is told how many units are done. Spool units are removed
    /// (or moved to `ingest/failed/`) as their batch completes.
    package func run(_ units: [IngestUnit], progress: (Int) -> Void = { _ in }) throws(EntitlementError) -> IngestReport {
        try run(units, reading: { range in units[range].map(self.parse) }, progress: progress)
    }

    /// Applies units whose events were read already (a vendor API's answers, verified by the
    /// caller as the adapters verify a webhook's): the same ledger, order and journal.
    package func run(prepared: [(unit: IngestUnit, parsed: ParsedUnit)], progress: (Int) -> Void = { _ in }) throws(EntitlementError) -> IngestReport {
        let parsed = prepared.map(\.parsed)
        return try run(prepared.map(\.unit), reading: { range in Array(parsed[range]) }, progress: progress)
    }

    /// Units read (parsed and verified) per chunk: the next chunk is read on a thread of its own
    /// while the units before it are applied, so verifying signatures overlaps the batch's
    /// writes and fsyncs. Reading is pure (no store access), so it may run ahead of the applying.
    static let readAhead = 256

    private func run(_ units: [IngestUnit], reading: @escaping @Sendable (Range<Int>) -> [ParsedUnit],
                     progress: (Int) -> Void) throws(EntitlementError) -> IngestReport {
        var report = IngestReport()
        var pending: [(unit: IngestUnit, events: [IngestEvent])] = []
        var pendingEvents = 0
        var done = 0
        func flush() throws(EntitlementError) {
            guard !pending.isEmpty else { return }
            let results = try applyBatch(pending)
            for result in results {
                report.add(result)
                try settle(result)
            }
            report.touched(results.flatMap { $0.results.compactMap { $0.outcome == .applied ? $0.event : nil } })
            done += pending.count
            progress(done)
            pending = []
            pendingEvents = 0
        }
        var start = 0
        var current = reading(0..<min(Self.readAhead, units.count))
        while start < units.count, !current.isEmpty {
            let next = (start + current.count)..<min(start + current.count + Self.readAhead, units.count)
            let ahead = ParsedChunk()
            let thread = next.isEmpty ? nil : WorkerThread.startOrRun { ahead.store(reading(next)) }
            defer { thread?.wait() }
            for (offset, parsed) in current.enumerated() {
                let unit = units[start + offset]
                switch parsed {
                case .refused(let outcome):
                    let result = UnitResult(unit: unit, results: [(nil, outcome)])
                    report.add(result)
                    try settle(result)
                    done += 1
                case .events(let events):
                    pending.append((unit, events))
                    pendingEvents += events.count
                    if pendingEvents >= batchSize { try flush() }
                }
            }
            thread?.wait()
            start += current.count
            current = ahead.take()
        }
        try flush()
        return report
    }

    /// The next chunk's units, read on another thread.
    private final class ParsedChunk: Sendable {
        private let units = Mutex<[ParsedUnit]>([])
        func store(_ parsed: [ParsedUnit]) { units.withLock { $0 = parsed } }
        func take() -> [ParsedUnit] { units.withLock { $0 } }
    }

    /// A spooled unit leaves the spool once handled: removed, or moved to `failed/` with the reason.
    /// Refused input (malformed, unauthenticated, unsupported) is kept in `failed/` too, never lost.
    private func settle(_ result: UnitResult) throws(EntitlementError) {
        guard case .spool(let name) = result.unit.source else { return }
        let spool = Spool(store: store)
        let reason = result.failure ?? result.results.lazy.compactMap { item -> String? in
            switch item.outcome {
            case .unsupported(let why), .malformed(let why), .unauthenticated(let why): return "\(item.outcome.column): \(why)"
            default: return nil
            }
        }.first
        if let reason {
            try spool.markFailed(name, SpoolRecord(request: result.unit.request, verification: ""), reason: reason)
        } else {
            try spool.remove(name)
        }
    }
}
