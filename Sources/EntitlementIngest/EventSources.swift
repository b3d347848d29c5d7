import FoundationEssentials
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `history --explain`: the audit record of the vendor event behind each row of a history,
/// read from the ledger ingest keeps (`EventLedger`: the body, verification and received time).
package struct EventSources: Sendable {
    let ledger: EventLedger

    package init(store: EntitlementStore) { ledger = EventLedger(store: store) }

    /// What `--explain` knows about one row.
    package enum Source: Sendable, Equatable {
        /// No vendor event made this change (a person did, or the record predates ingest).
        case none
        case record(AuditRecord)
        /// The record names an event whose audit record is missing or cannot be read (`verify` says more).
        case unavailable(EventReference, reason: String)
    }

    /// One source per event, in order; each ledger file is read once.
    package func sources(for events: [HistoryEvent]) -> [Source] {
        var cache: [String: Source] = [:]
        return events.map { event in
            guard let reference = event.sourceEvent else { return .none }
            let key = "\(reference.vendor)\0\(reference.id)"
            if let known = cache[key] { return known }
            let source = lookUp(reference)
            cache[key] = source
            return source
        }
    }

    private func lookUp(_ reference: EventReference) -> Source {
        guard let vendor = Vendor(rawValue: reference.vendor) else { return .unavailable(reference, reason: "unknown vendor") }
        do throws(EntitlementError) {
            guard let record = try ledger.record(vendor: vendor, id: reference.id) else {
                return .unavailable(reference, reason: "no audit record in \(EventLedger.relativePath(vendor: vendor, id: reference.id))")
            }
            return .record(record)
        } catch {
            return .unavailable(reference, reason: error.description)
        }
    }
}
