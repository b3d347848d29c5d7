import EntitlementJSON

/// The order of keys (or of any named items) in a merged result, chosen so that it
/// does not depend on which side is "ours".
///
/// When both sides list the result's items in the same order, that order stays.
/// Otherwise the items the base had keep the base's order, and the others follow,
/// sorted by their UTF-8 bytes. Names are compared byte for byte, as JSON keys are.
enum KeyOrder {
    /// Every key of either side or the base (the merge decides which survive), sorted by bytes.
    static func union(base: [String]?, ours: [String], theirs: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        var keys: [String] = []
        for key in (base ?? []) + ours + theirs where seen.insert(Array(key.utf8)).inserted { keys.append(key) }
        return keys.sorted { JSONOrder.bytes($0, $1) < 0 }
    }

    /// `items` (the result's names) ordered by the rule above.
    static func arrange(_ items: [String], base: [String]?, ours: [String], theirs: [String]) -> [String] {
        let members = Set(items.map { Array($0.utf8) })
        let left = ours.filter { members.contains(Array($0.utf8)) }, right = theirs.filter { members.contains(Array($0.utf8)) }
        if left.count == items.count, left.elementsEqual(right, by: { JSONOrder.bytes($0, $1) == 0 }) { return left }
        let kept = (base ?? []).filter { members.contains(Array($0.utf8)) }
        let keptSet = Set(kept.map { Array($0.utf8) })
        return kept + items.filter { !keptSet.contains(Array($0.utf8)) }.sorted { JSONOrder.bytes($0, $1) < 0 }
    }

    /// The object with its keys ordered by the rule above.
    static func arrange(_ object: JSONObject, base: [String]?, ours: [String], theirs: [String]) -> JSONObject {
        let order = arrange(object.keys, base: base, ours: ours, theirs: theirs)
        // By hash, not by `object[key]`: a lookup scans the entries, and an object of 20,000
        // keys made the merge driver quadratic.
        var values: [JSONKey: JSONValue] = [:]
        values.reserveCapacity(object.entries.count)
        for entry in object.entries { values[JSONKey(entry.key)] = entry.value }
        return JSONObject(order.map { ($0, values[JSONKey($0)]!) })
    }
}
