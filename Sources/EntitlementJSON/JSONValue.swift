/// A JSON document tree that keeps numbers as written and object keys in order.
///
/// The store keeps what it does not understand: a file read into `JSONValue` and
/// written back loses no field and no digit of a number.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's literal text, so `9.99` stays `9.99` through a rewrite.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A number value from an integer.
    package static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number value from a double, written in its shortest round-trip form.
    package static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }  // JSON has no inf or nan
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }

    /// A string value, or `null` when `value` is nil.
    package static func string(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The name of this value's kind, for error messages ("a string", "an object").
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The object, if this is one.
    package var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The string, if this is one.
    package var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    package var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }
}

/// A JSON object whose keys keep their order of first appearance.
package struct JSONObject: Equatable, Sendable {
    /// Key-value pairs in document order; keys are unique.
    package private(set) var entries: [(key: String, value: JSONValue)] = []

    package init() {}

    /// An object from pairs in order; a repeated key keeps its first place and last value.
    package init(_ pairs: [(String, JSONValue)]) {
        if pairs.count <= 32 {
            entries.reserveCapacity(pairs.count)
            for (key, value) in pairs {
                if let position = entries.firstIndex(where: { JSONKey.equal($0.key, key) }) { entries[position].value = value } else { entries.append((key, value)) }
            }
            return
        }
        var positions: [JSONKey: Int] = [:]
        positions.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if let position = positions[JSONKey(key)] {
                entries[position].value = value
            } else {
                positions[JSONKey(key)] = entries.count
                entries.append((key, value))
            }
        }
    }

    /// An object from pairs whose keys are distinct (members of a document the byte decoder
    /// accepted, which refuses a repeated key): no duplicate search.
    init(uniqueKeys pairs: [(String, JSONValue)]) {
        entries.reserveCapacity(pairs.count)
        for (key, value) in pairs { entries.append((key, value)) }
    }

    /// An object from pairs whose keys are distinct and in byte order (literal keys the
    /// caller wrote so): no duplicate search, and the writer finds nothing to sort.
    package init(uniqueSortedKeys pairs: [(String, JSONValue)]) {
        entries.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            assert(entries.last.map { JSONKey.precedes($0.key, key) } ?? true, "keys out of order: \(key)")
            entries.append((key, value))
        }
    }

    /// The keys in document order.
    package var keys: [String] { entries.map(\.key) }

    package var isEmpty: Bool { entries.isEmpty }

    /// Reads or replaces a value; assigning `nil` removes the key.
    package subscript(key: String) -> JSONValue? {
        get {
            // This lookup runs for every field of every transaction a command reads: the
            // key's bytes are fetched once, and each entry is compared by length, then memcmp.
            // Keys match byte for byte, as JSON defines them (not by Unicode equivalence).
            let found = key.utf8.withContiguousStorageIfAvailable { wanted in
                entries.withUnsafeBufferPointer { (entries) -> JSONValue? in
                    for index in entries.indices where entries[index].key.utf8.count == wanted.count {
                        let same = entries[index].key.utf8.withContiguousStorageIfAvailable { JSONKey.compare($0, wanted) == 0 }
                        if same ?? JSONKey.equal(entries[index].key, key) { return entries[index].value }
                    }
                    return nil
                }
            }
            if let found { return found }
            for entry in entries where JSONKey.equal(entry.key, key) { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { JSONKey.equal($0.key, key) }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// Appends a key the caller knows is new (the parser checks duplicates itself).
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        entries.append((key, value))
    }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        return lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
    }
}
