import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// The events applied, one file per event id: `ingest/events/VENDOR/xx/SHA256(id).json`.
///
/// Inside the store and committed with the profiles in one journal, so a replay (a retry, a
/// restart, another clone of a team store after `sync`) finds its file and changes nothing.
/// One file per event merges in git without conflicts (clones only add files). Each file is
/// also the event's audit record: the raw body, the verification and the received time.
struct EventLedger: Sendable {
    let store: EntitlementStore

    static let directory = EntitlementStore.eventRecordsDirectory

    init(store: EntitlementStore) { self.store = store }

    /// The store-relative path of `id`'s record.
    static func relativePath(vendor: Vendor, id: String) -> String {
        let digest = SHA256.hexDigest(Array(id.utf8))
        return "\(directory)/\(vendor.rawValue)/\(digest.prefix(2))/\(digest).json"
    }

    /// What the ledger holds for one event.
    enum Entry: Equatable, Sendable {
        case absent
        /// Applied already (in this copy, or one that synced with it).
        case recorded
        /// A file the tool cannot read (a hand edit, a teammate's push): the event is neither a
        /// duplicate nor applied over it; it fails, kept, until the file is fixed.
        case unreadable(String)
    }

    /// The event's record, read: a file that only exists never makes the event a duplicate.
    func entry(vendor: Vendor, id: String) -> Entry {
        let relative = Self.relativePath(vendor: vendor, id: id)
        let path = "\(store.root)/\(relative)"
        let bytes: [UInt8]?
        do { bytes = try store.fileSystem.readFile(path) } catch { return .unreadable("\(path): \(error.description)") }
        guard let bytes else { return .absent }
        if let problem = StoreFileKind.eventRecord.problem(with: bytes, at: relative) { return .unreadable("\(path): \(problem)") }
        return .recorded
    }

    /// True when the event is already applied (in this copy, or one that synced with it).
    func contains(vendor: Vendor, id: String) -> Bool { entry(vendor: vendor, id: id) == .recorded }

    /// The audit record of an applied event, if any.
    func record(vendor: Vendor, id: String) throws(EntitlementError) -> AuditRecord? {
        let path = "\(store.root)/\(Self.relativePath(vendor: vendor, id: id))"
        guard let bytes = try store.fileSystem.readFile(path) else { return nil }
        guard let record = AuditRecord(bytes: bytes) else { throw .invalidFile(path: path, detail: "not an event record") }
        return record
    }
}

/// What the ledger keeps about one applied event (never a secret: headers are not kept).
package struct AuditRecord: Sendable, Equatable {
    package var vendor: Vendor
    package var id: String
    package var type: String
    package var eventTime: Date
    package var receivedAt: Date
    var customer: String?
    /// The customer the vendor named, when the event applied to the holder of a transferred purchase (`customer`).
    var addressedTo: String?
    package var verification: String
    /// `applied`, `no_change` or `out_of_order` (older than what the records hold).
    package var outcome: String
    var body: String

    init(event: IngestEvent, receivedAt: Date, outcome: String, body: [UInt8]) {
        vendor = event.vendor
        id = event.id
        type = event.type
        eventTime = event.time
        self.receivedAt = receivedAt
        customer = event.customer
        addressedTo = event.addressedTo
        verification = event.verification
        self.outcome = outcome
        self.body = String(decoding: body, as: UTF8.self)
    }

    package var bytes: [UInt8] {
        var fields: [(String, JSONValue)] = [
            ("schema_version", .int(1)), ("vendor", .string(vendor.rawValue)), ("id", .string(id)), ("type", .string(type)),
            ("event_time", .string(ISODate.format(eventTime))), (IngestRecordKeys.receivedAt, .string(ISODate.format(receivedAt))),
        ]
        if let customer { fields.append(("customer", .string(customer))) }
        if let addressedTo { fields.append(("addressed_to", .string(addressedTo))) }
        fields += [("verification", .string(verification)), ("outcome", .string(outcome)), ("body", .string(body))]
        return JSONWriter().bytes(.object(JSONObject(fields)))
    }

    init?(bytes: [UInt8]) {
        guard case .object(let o)? = try? JSONParser.parse(bytes),
              let vendor = o["vendor"]?.stringValue.flatMap(Vendor.init(rawValue:)), let id = o["id"]?.stringValue,
              let eventTime = o["event_time"]?.stringValue.flatMap(ISODate.parse),
              let receivedAt = o["received_at"]?.stringValue.flatMap(ISODate.parse) else { return nil }
        self.vendor = vendor
        self.id = id
        type = o["type"]?.stringValue ?? ""
        self.eventTime = eventTime
        self.receivedAt = receivedAt
        customer = o["customer"]?.stringValue
        addressedTo = o["addressed_to"]?.stringValue
        verification = o["verification"]?.stringValue ?? ""
        outcome = o["outcome"]?.stringValue ?? ""
        body = o["body"]?.stringValue ?? ""
    }
}
