import EntitlementBasics
import EntitlementJSON

/// Two clones' records of one awaited Google Play purchase
/// (`ingest/googleplay/purchases/SHA256(token).json`, EntitlementIngest's `AwaitingPurchase`).
///
/// One clone took a notification for the token while another imported its document (or both
/// took notifications): each side's latest notification and latest import are kept, the later
/// of each, so the merged record awaits exactly when one of the sides' notifications is newer
/// than every import. The same answer whichever side merges; a side that cannot be read
/// loses to one that can.
enum PlayPurchaseMerge {
    static func merge(ours: [UInt8], _ left: JSONValue, theirs: [UInt8], _ right: JSONValue) -> [UInt8] {
        guard ours != theirs else { return ours }
        guard let mine = left.objectValue, let other = right.objectValue,
              let token = mine["purchase_token"]?.stringValue, other["purchase_token"]?.stringValue == token else {
            return left.objectValue?["purchase_token"]?.stringValue != nil ? ours : theirs
        }
        func date(_ object: JSONObject, _ key: String) -> String? {
            object[key]?.stringValue.flatMap { ISODate.parse($0) != nil ? $0 : nil }
        }
        func later(_ a: String?, _ b: String?) -> String? {
            guard let a, let b else { return a ?? b }
            return ISODate.parse(a)! >= ISODate.parse(b)! ? a : b
        }
        // The later notification with its type; on the same time, the greater type in byte order.
        let notified = later(date(mine, "notified_at"), date(other, "notified_at"))
        let types = [mine, other].filter { date($0, "notified_at") == notified }.compactMap { $0["notification_type"]?.stringValue }
        let type = types.max { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let object = JSONObject([
            ("schema_version", .int(1)), ("purchase_token", .string(token)), ("notification_type", .string(type)),
            ("notified_at", .string(notified)), ("imported_at", .string(later(date(mine, "imported_at"), date(other, "imported_at")))),
        ])
        return JSONWriter().bytes(.object(object))
    }
}
