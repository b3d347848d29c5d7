import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The event that last set a record, kept in the record as `applied_event` (docs/store-format.md,
/// "Ingest"). A record is changed only by a newer event, so any arrival order converges.
struct RecordStamp: Comparable, Sendable {
    static let key = IngestRecordKeys.appliedEvent

    var time: Date
    var vendor: String
    var id: String

    init(_ event: IngestEvent) {
        time = event.time
        vendor = event.vendor.rawValue
        id = event.id
    }

    /// The stamp from the value of a record's `applied_event` (or a profile's `last_event`), if it is one.
    init?(stored: JSONValue?) {
        guard case .object(let object)? = stored, let at = object["at"]?.stringValue.flatMap(ISODate.parse),
              let vendor = object["vendor"]?.stringValue, let id = object["id"]?.stringValue else { return nil }
        time = at
        self.vendor = vendor
        self.id = id
    }

    var json: JSONValue {
        .object(JSONObject([("at", .string(ISODate.format(time))), ("vendor", .string(vendor)), ("id", .string(id))]))
    }

    /// Vendor time first; ties broken by vendor and id, so the order is total.
    static func < (a: RecordStamp, b: RecordStamp) -> Bool {
        (a.time, a.vendor, a.id) < (b.time, b.vendor, b.id)
    }

    /// True when the record's `applied_event` value (read without parsing the rest of the
    /// record) is no stamp, or an older one: the event may set the record.
    func supersedes(stored value: JSONValue?) -> Bool {
        guard let stored = RecordStamp(stored: value) else { return true }
        return stored < self
    }

    /// `raw` with this stamp.
    func stamping(_ raw: JSONObject) -> JSONObject {
        var raw = raw
        raw[Self.key] = json
        return raw
    }
}

/// The profile-level audit fields ingest keeps: the newest event, and the customer's other ids.
enum ProfileIngestFields {
    static let lastEvent = IngestRecordKeys.lastEvent
    static let aliases = IngestRecordKeys.aliases

    /// The newest event applied to the profile, if any.
    static func lastEvent(of profile: Profile) -> (stamp: RecordStamp, type: String)? {
        let stored = profile.rawMember(lastEvent)
        guard let stamp = RecordStamp(stored: stored) else { return nil }
        return (stamp, stored?.objectValue?["type"]?.stringValue ?? "")
    }

    /// Notes `event` as the newest one when it is.
    static func noteEvent(_ event: IngestEvent, in profile: inout Profile) {
        let stamp = RecordStamp(event)
        if let stored = lastEvent(of: profile), !(stored.stamp < stamp) { return }
        guard case .object(var object) = stamp.json else { return }
        object["type"] = .string(event.type)
        profile.setRawMember(lastEvent, .object(object))
    }

    /// The customer's other ids, in byte order.
    static func aliases(of profile: Profile) -> [String] {
        guard case .array(let items)? = profile.rawMember(aliases) else { return [] }
        return items.compactMap(\.stringValue)
    }

    static func addAliases(_ ids: [String], to profile: inout Profile) {
        let all = Set(aliases(of: profile) + ids).subtracting([profile.customerUserID])
        guard !ids.isEmpty else { return }
        profile.setRawMember(aliases, .array(all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(JSONValue.string)))
    }

    /// A profile id that every copy of a team store derives alike for a customer ingest creates.
    static func profileID(for customer: String) -> String {
        let hex = Array(SHA256.hexDigest(Array("entitlement-ingest:\(customer)".utf8)).prefix(32))
        return "\(String(hex[0..<8]))-\(String(hex[8..<12]))-\(String(hex[12..<16]))-\(String(hex[16..<20]))-\(String(hex[20..<32]))"
    }
}
