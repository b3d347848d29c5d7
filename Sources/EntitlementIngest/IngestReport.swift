import EntitlementBasics
import EntitlementModel

/// The counts `ingest` prints (applied, duplicate, out of order, unauthenticated, unsupported,
/// malformed, failed), the customers touched, and the exit code: the worst outcome wins.
package struct IngestReport: Sendable {
    package static let columns = ["applied", "duplicate", "out_of_order", "unauthenticated", "unsupported", "malformed", "failed"]

    package var counts: [String: Int] = Dictionary(uniqueKeysWithValues: columns.map { ($0, 0) })
    /// One line per event that was not applied, for standard error: `SOURCE: EVENT: reason`.
    package var problems: [String] = []
    /// Customers an applied event touched, by the event's vendor, in order (for `ingest --refresh`).
    package var touchedCustomers: [Vendor: [String]] = [:]
    private var touchedSet: Set<String> = []
    /// How many events came from local input (no HTTP): the operator vouches for them.
    package var localEvents = 0
    /// Voided Google Play purchases whose token no customer here holds (nothing to revoke).
    package var notHeld = 0
    package var exitCode: ExitCode = .success

    package init() {}

    package mutating func add(_ result: UnitResult) {
        for (event, outcome) in result.results {
            counts[outcome.column, default: 0] += 1
            exitCode = ExitCode.worst(exitCode, outcome.exitCode)
            if event != nil, !result.unit.request.overHTTP, !result.unit.source.isAPI { localEvents += 1 }
            if case .noChange = outcome, let event, event.effects.playRevocation != nil, event.customer == nil { notHeld += 1 }
            switch outcome {
            case .applied, .noChange, .duplicate, .outOfOrder: continue
            case .unauthenticated(let why), .unsupported(let why), .malformed(let why), .failed(let why):
                let subject = event.map { "\($0.vendor.rawValue) event \(Terminal.escape($0.id))" } ?? result.unit.request.vendor.rawValue
                problems.append("\(Terminal.escape(result.unit.source.name)): \(subject): \(outcome.column): \(Terminal.escape(why))")
            }
        }
    }

    package mutating func touched(_ events: [IngestEvent]) {
        for event in events {
            for customer in EventApplier.customers(of: event) where touchedSet.insert("\(event.vendor.rawValue) \(customer)").inserted {
                touchedCustomers[event.vendor, default: []].append(customer)
            }
        }
    }

    package var total: Int { counts.values.reduce(0, +) }
}
