import FoundationEssentials
import EntitlementBasics
import EntitlementJSON

/// Typed reads of vendor fields, with the types of docs/import.md section 6.1.
///
/// Every error names the field's path and shows the value found, so a person can find it.
extension FieldReader {
    package func vendorMissing(_ key: String) -> FieldError {
        FieldError(path: childPath(key), message: "missing required field")
    }

    func vendorWrongType(_ key: String, expected: String, found: JSONValue) -> FieldError {
        FieldError(path: childPath(key), message: "expected \(expected), found \(ImportPath.show(found))")
    }

    /// A string, or nil when absent or null.
    package func vendorString(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw vendorWrongType(key, expected: "a string", found: value) }
        return text
    }

    /// A required, non-empty string (ids).
    package func vendorID(_ key: String) throws(FieldError) -> String {
        guard let text = try vendorString(key) else { throw vendorMissing(key) }
        guard !text.isEmpty else { throw FieldError(path: childPath(key), message: "must not be empty") }
        return text
    }

    /// A string that counts as absent when empty.
    package func vendorNonEmptyString(_ key: String) throws(FieldError) -> String? {
        guard let text = try vendorString(key), !text.isEmpty else { return nil }
        return text
    }

    package func vendorBool(_ key: String) throws(FieldError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw vendorWrongType(key, expected: "a boolean", found: value) }
        return flag
    }

    func vendorRequiredBool(_ key: String) throws(FieldError) -> Bool {
        guard let flag = try vendorBool(key) else { throw vendorMissing(key) }
        return flag
    }

    /// A number literal without fraction or exponent.
    package func vendorInt(_ key: String) throws(FieldError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let number = Int(text) else {
            throw vendorWrongType(key, expected: "an integer", found: value)
        }
        return number
    }

    package func vendorNumber(_ key: String) throws(FieldError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let number = Double(text), number.isFinite else {
            throw vendorWrongType(key, expected: "a number", found: value)
        }
        return number
    }

    /// An ISO 8601 string as `ISODate.parse` reads it.
    package func vendorISODate(_ key: String) throws(FieldError) -> Date? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw vendorWrongType(key, expected: "a date (ISO 8601 string)", found: value)
        }
        guard let date = ISODate.parse(text) else {
            throw FieldError(path: childPath(key), message: "expected a date (ISO 8601 string), found \(ImportPath.show(value))")
        }
        return date
    }

    package func vendorRequiredISODate(_ key: String) throws(FieldError) -> Date {
        guard let date = try vendorISODate(key) else { throw vendorMissing(key) }
        return date
    }

    /// Apple's dates: milliseconds since 1970 (a fraction is accepted and dropped).
    package func vendorEpochMilliseconds(_ key: String) throws(FieldError) -> Date? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let milliseconds = Double(text) else {
            throw vendorWrongType(key, expected: "epoch milliseconds (a number)", found: value)
        }
        guard let date = VendorDate.fromEpochMilliseconds(milliseconds) else { throw outOfRange(key, value) }
        return date
    }

    package func vendorRequiredEpochMilliseconds(_ key: String) throws(FieldError) -> Date {
        guard let date = try vendorEpochMilliseconds(key) else { throw vendorMissing(key) }
        return date
    }

    /// Qonversion's dates: a number of seconds since 1970, fractions allowed.
    package func vendorEpochSeconds(_ key: String) throws(FieldError) -> Date? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let seconds = Double(text), seconds.isFinite else {
            throw vendorWrongType(key, expected: "epoch seconds (a number)", found: value)
        }
        guard let date = VendorDate.fromEpochSeconds(seconds) else { throw outOfRange(key, value) }
        return date
    }

    package func vendorRequiredEpochSeconds(_ key: String) throws(FieldError) -> Date {
        guard let date = try vendorEpochSeconds(key) else { throw vendorMissing(key) }
        return date
    }

    /// The store writes four-digit years, so a date outside 0001–9999 could not be read back.
    private func outOfRange(_ key: String, _ value: JSONValue) -> FieldError {
        FieldError(path: childPath(key), message: "the date \(ImportPath.show(value)) is outside the years 0001 to 9999")
    }

    /// Qonversion's `active`: 0, 1, true or false; returns the flag and its text.
    func vendorActiveFlag(_ key: String) throws(FieldError) -> (flag: Bool, text: String) {
        guard let value = value(key) else { throw vendorMissing(key) }
        switch value {
        case .bool(let flag): return (flag, flag ? "true" : "false")
        case .number("0"): return (false, "0")
        case .number("1"): return (true, "1")
        default: throw vendorWrongType(key, expected: "0, 1, true or false", found: value)
        }
    }

    /// A nested object, or nil when absent or null.
    package func vendorObject(_ key: String) throws(FieldError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw vendorWrongType(key, expected: "an object", found: value) }
        return FieldReader(object, path: childPath(key))
    }

    package func vendorArray(_ key: String) throws(FieldError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw vendorWrongType(key, expected: "an array", found: value) }
        return items
    }

    /// An object keyed by ids, in ascending key order (Unicode scalars), as (key, value, path).
    func vendorMap(_ key: String) throws(FieldError) -> [(key: String, value: JSONValue, path: String)] {
        guard let map = try vendorObject(key) else { return [] }
        return map.object.entries
            .sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
            .map { ($0.key, $0.value, ImportPath.member(map.path, $0.key)) }
    }
}

extension FieldReader {
    /// `value` as an object at `path`, with the import wording.
    package static func vendorObject(_ value: JSONValue, path: String) throws(FieldError) -> FieldReader {
        guard case .object(let object) = value else {
            throw FieldError(path: path, message: "expected an object, found \(ImportPath.show(value))")
        }
        return FieldReader(object, path: path)
    }
}
