import FoundationEssentials
import EntitlementBasics

extension JSONObject {
    /// Writes a typed field over a raw object: sets it, or removes it when nil,
    /// leaving an explicit `null` in place if the file had one.
    package mutating func merge(_ key: String, _ value: JSONValue?) {
        if let value {
            self[key] = value
        } else if let existing = self[key], existing != .null {
            self[key] = nil
        }
    }

    /// Like `merge`, but keeps the file's own spelling of a date that did not change.
    package mutating func mergeDate(_ key: String, _ date: Date?) {
        if let date, case .string(let text)? = self[key], let old = ISODate.parse(text), abs(old.timeIntervalSince(date)) < 1e-6 {
            return
        }
        merge(key, date.map { .string(ISODate.format($0)) })
    }

    /// Like `merge`, but keeps the file's own spelling of a number that did not change.
    package mutating func mergeNumber(_ key: String, _ number: Double?) {
        if let number, case .number(let text)? = self[key], Double(text) == number { return }
        merge(key, number.map(JSONValue.double))
    }

    /// Sets a string field, or removes it when nil.
    package mutating func mergeString(_ key: String, _ text: String?) {
        merge(key, text.map(JSONValue.string))
    }
}
