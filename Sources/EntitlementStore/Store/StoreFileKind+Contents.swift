import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

extension StoreFileKind {
    /// Why `bytes` cannot be the file of this kind at the store-relative `path`, or nil when the
    /// tool can read it. For index entries, event records and Google Play purchases; profiles and
    /// `config.json` have their own readers (`EntitlementStore.decodeProfile`, `ProductConfiguration`).
    ///
    /// The same rule for what `sync` lets arrive, what `verify` reports and what the ledger
    /// trusts: a record that cannot be read never makes its event a duplicate.
    package func problem(with bytes: [UInt8], at path: String) -> String? {
        switch self {
        case .configuration, .profile:
            return nil
        case .profileIDIndexEntry, .aliasIndexEntry, .appStoreCustomerIndexEntry:
            guard let userID = String(validating: bytes, as: UTF8.self), (try? UserID.validate(userID)) != nil,
                  !userID.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                return "unreadable index entry: it must hold one customer user id in UTF-8"
            }
            return nil
        case .eventRecord:
            guard case .object(let record)? = try? JSONParser.parse(bytes) else { return "unreadable event record: not a JSON object" }
            guard let vendor = record["vendor"]?.stringValue, let id = record["id"]?.stringValue,
                  record["event_time"]?.stringValue.flatMap(ISODate.parse) != nil,
                  record[IngestRecordKeys.receivedAt]?.stringValue.flatMap(ISODate.parse) != nil else {
                return "unreadable event record: it needs \"vendor\", \"id\", \"event_time\" and \"\(IngestRecordKeys.receivedAt)\""
            }
            let parts = path.split(separator: "/")
            let digest = SHA256.hexDigest(Array(id.utf8))
            guard parts.count >= 3, parts[parts.count - 3] == Substring(vendor), parts.last == Substring("\(digest).json") else {
                return "misplaced event record: it holds \(Terminal.escape(vendor)) event '\(Terminal.escape(id))', whose record belongs elsewhere"
            }
            return nil
        case .googlePlayPurchase:
            guard case .object(let record)? = try? JSONParser.parse(bytes), let token = record["purchase_token"]?.stringValue else {
                return "unreadable Google Play purchase record: it needs \"purchase_token\""
            }
            for key in ["notified_at", "imported_at"] where !(record[key] == nil || record[key] == .null || record[key]?.stringValue.flatMap(ISODate.parse) != nil) {
                return "unreadable Google Play purchase record: \"\(key)\" is not a date"
            }
            guard PathName.base(of: path) == "\(SHA256.hexDigest(Array(token.utf8))).json" else {
                return "misplaced Google Play purchase record: it holds another purchase token"
            }
            return nil
        }
    }
}
