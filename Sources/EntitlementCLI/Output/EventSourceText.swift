import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// How `history --explain` names the vendor event behind a change, from its audit record.
enum EventSourceText {
    /// `revenuecat CANCELLATION e2, received 2026-01-06 10:00 UTC`, or `-`.
    static func cell(_ source: EventSources.Source) -> String {
        switch source {
        case .none: return "-"
        case .record(let record): return "\(record.vendor.rawValue) \(record.type) \(record.id), received \(HumanDate.format(record.receivedAt))"
        case .unavailable(let reference, _): return "\(reference.vendor) \(reference.id) (audit record unavailable)"
        }
    }

    /// `source_vendor`, `source_event_type`, `source_event_id`, `source_received_at` (csv, tsv).
    static func fields(_ source: EventSources.Source) -> [String] {
        switch source {
        case .none: return ["", "", "", ""]
        case .record(let record): return [record.vendor.rawValue, record.type, record.id, ISODate.format(record.receivedAt)]
        case .unavailable(let reference, _): return [reference.vendor, "", reference.id, ""]
        }
    }

    /// `{"vendor", "type", "id", "event_time", "received_at", "verification", "outcome"}`, or
    /// `{"vendor", "id", "unavailable": REASON}`, or null.
    static func json(_ source: EventSources.Source) -> JSONValue {
        switch source {
        case .none: return .null
        case .record(let record):
            return .object(JSONObject([
                ("vendor", .string(record.vendor.rawValue)), ("type", .string(record.type)), ("id", .string(record.id)),
                ("event_time", .string(ISODate.format(record.eventTime))), ("received_at", .string(ISODate.format(record.receivedAt))),
                ("verification", .string(record.verification)), ("outcome", .string(record.outcome)),
            ]))
        case .unavailable(let reference, let reason):
            return .object(JSONObject([("vendor", .string(reference.vendor)), ("id", .string(reference.id)), ("unavailable", .string(reason))]))
        }
    }
}
