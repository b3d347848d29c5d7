import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The profile lists that only ever grow merge as unions, not as "the greater value": two
/// clones that each learn an alias of a customer (`aliases`) or each record a
/// transfer (`transfers`) keep both, so every alias index entry still names a profile that
/// lists it, and neither audit entry is lost.
enum AppendOnlyLists {
    /// Sets `aliases` and `transfers` of `merged` to the union of both sides (absent when both are).
    static func merge(_ merged: inout JSONObject, ours: JSONObject, theirs: JSONObject) {
        let aliases = strings(ours[IngestRecordKeys.aliases]) + strings(theirs[IngestRecordKeys.aliases])
        if !aliases.isEmpty {
            var seen = Set<[UInt8]>()
            let union = aliases.filter { seen.insert(Array($0.utf8)).inserted }.sorted { JSONOrder.bytes($0, $1) < 0 }
            merged[IngestRecordKeys.aliases] = .array(union.map(JSONValue.string))
        }
        let entries = objects(ours[IngestRecordKeys.transfers]) + objects(theirs[IngestRecordKeys.transfers])
        if !entries.isEmpty {
            // One entry per distinct object, by its bytes; in time order, ties by bytes: the same on every clone.
            var seen = Set<[UInt8]>()
            let keyed = entries.map { (bytes: JSONWriter(style: .compact).bytes($0), value: $0) }.filter { seen.insert($0.bytes).inserted }
            let ordered = keyed.sorted { a, b in
                let (x, y) = (at(a.value), at(b.value))
                return x != y ? x < y : a.bytes.lexicographicallyPrecedes(b.bytes)
            }
            merged[IngestRecordKeys.transfers] = .array(ordered.map(\.value))
        }
    }

    private static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// The list's items; a value that is not a list is left to `ValueMerge` (nothing here).
    private static func objects(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let items)? = value else { return [] }
        return items
    }

    private static func at(_ entry: JSONValue) -> Date { entry.objectValue?["at"]?.stringValue.flatMap(ISODate.parse) ?? .distantPast }
}
