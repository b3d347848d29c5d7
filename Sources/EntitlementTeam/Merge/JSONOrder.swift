import FoundationEssentials
import EntitlementBasics
import EntitlementJSON

/// A total order on JSON values (and absence), so that a merge which must choose
/// between two different values chooses the same one whichever side is "ours".
///
/// Absent < null < false < true < numbers < date strings < other strings < arrays < objects.
/// Numbers compare by value, then by their text; date strings by instant, then by text;
/// strings by their UTF-8 bytes (never by Unicode equivalence, so NFC and NFD differ);
/// arrays element by element; objects by their entries sorted by key.
/// Two values compare equal only when they are written identically.
enum JSONOrder {
    /// -1, 0 or 1 as `lhs` is less than, identical to, or greater than `rhs`.
    static func compare(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Int {
        if case .string(let a)? = lhs, case .string(let b)? = rhs, a.utf8.elementsEqual(b.utf8) { return 0 }
        let (left, right) = (rank(lhs), rank(rhs))
        if left != right { return left < right ? -1 : 1 }
        switch (lhs, rhs) {
        case (.bool(let a)?, .bool(let b)?): return a == b ? 0 : (a ? 1 : -1)
        case (.number(let a)?, .number(let b)?):
            if let x = Double(a), let y = Double(b), x != y { return x < y ? -1 : 1 }
            return bytes(a, b)
        case (.string(let a)?, .string(let b)?):
            if let x = ISODate.parse(a), let y = ISODate.parse(b), x != y { return x < y ? -1 : 1 }
            return bytes(a, b)
        case (.array(let a)?, .array(let b)?):
            for (x, y) in zip(a, b) {
                let order = compare(x, y)
                if order != 0 { return order }
            }
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        case (.object(let a)?, .object(let b)?):
            let x = sortedEntries(a), y = sortedEntries(b)
            for (p, q) in zip(x, y) {
                let keyOrder = bytes(p.key, q.key)
                if keyOrder != 0 { return keyOrder }
                let order = compare(p.value, q.value)
                if order != 0 { return order }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        default:
            return 0  // same rank and no payload: both absent or both null
        }
    }

    /// True when both are absent, or both are written identically.
    static func same(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        // `==` may call canonically equivalent strings equal, so only its "no" is final.
        lhs == rhs && compare(lhs, rhs) == 0
    }

    /// The greater of two values (either, when identical).
    static func greater(_ lhs: JSONValue?, _ rhs: JSONValue?) -> JSONValue? { compare(lhs, rhs) >= 0 ? lhs : rhs }

    /// Byte order of two strings' UTF-8.
    static func bytes(_ lhs: String, _ rhs: String) -> Int {
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }

    static func sortedEntries(_ object: JSONObject) -> [(key: String, value: JSONValue)] {
        object.entries.sorted { bytes($0.key, $1.key) < 0 }
    }

    private static func rank(_ value: JSONValue?) -> Int {
        switch value {
        case nil: return 0
        case .null?: return 1
        case .bool?: return 2
        case .number?: return 3
        case .string(let text)?: return ISODate.parse(text) == nil ? 5 : 4
        case .array?: return 6
        case .object?: return 7
        }
    }
}
