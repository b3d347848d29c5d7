import FoundationEssentials
import EntitlementBasics

/// A wrong or missing field in a JSON document, with its path ("transactions[2].expires_at").
package struct FieldError: Error, Equatable, Sendable {
    package var path: String
    package var message: String
    /// Set when the field is a `schema_version` newer than this tool supports: callers
    /// switch on it (`EntitlementError.newerSchema`) instead of matching the message.
    package var newerSchemaVersion: Int? = nil
    /// Set when the field is signed data that failed verification (docs/security.md):
    /// `import` reports it as `EntitlementError.untrustedSignedData`, not as a format error.
    package var refusedSignature = false

    package init(path: String, message: String, newerSchemaVersion: Int? = nil, refusedSignature: Bool = false) {
        self.path = path
        self.message = message
        self.newerSchemaVersion = newerSchemaVersion
        self.refusedSignature = refusedSignature
    }

    package var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Reads typed fields out of a `JSONObject`, naming the field's path in every error.
package struct FieldReader {
    package let object: JSONObject
    package let path: String
    /// The object's values of a model's known fields, found in one pass (see `FieldTable`).
    private var known: (table: FieldTable, values: [JSONValue?])?

    package init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    /// A reader that finds `fields` in one pass over `object`; other keys are looked up as usual.
    package init(_ object: JSONObject, path: String, fields: FieldTable) {
        self.init(object, path: path)
        known = (fields, fields.values(in: object))
    }

    /// Reads `value` as an object at `path`.
    package init(_ value: JSONValue, path: String) throws(FieldError) {
        guard case .object(let object) = value else {
            throw FieldError(path: path, message: "expected an object, found \(value.kindDescription)")
        }
        self.init(object, path: path)
    }

    package func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func wrongType(_ key: String, expected: String, found: JSONValue) -> FieldError {
        FieldError(path: childPath(key), message: "expected \(expected), found \(found.kindDescription)")
    }

    func missing(_ key: String) -> FieldError {
        FieldError(path: childPath(key), message: "required field is missing")
    }

    /// The value, treating `null` as absent.
    package func value(_ key: String) -> JSONValue? {
        let found: JSONValue?
        if let known, let slot = known.table.slot(key) { found = known.values[slot] } else { found = object[key] }
        guard let value = found else { return nil }
        if case .null = value { return nil }
        return value
    }

    package func optionalString(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, expected: "a string", found: value) }
        return text
    }

    package func string(_ key: String) throws(FieldError) -> String {
        guard let text = try optionalString(key) else { throw missing(key) }
        return text
    }

    /// A non-empty string; empty is as bad as missing for ids.
    package func identifier(_ key: String) throws(FieldError) -> String {
        let text = try string(key)
        guard !text.isEmpty else { throw FieldError(path: childPath(key), message: "must not be empty") }
        return text
    }

    package func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(key, expected: "true or false", found: value) }
        return flag
    }

    package func optionalInt(_ key: String) throws(FieldError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let number = Int(text) else {
            throw wrongType(key, expected: "a whole number", found: value)
        }
        return number
    }

    package func optionalNumber(_ key: String) throws(FieldError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let number = Double(text) else {
            throw wrongType(key, expected: "a number", found: value)
        }
        guard number.isFinite else { throw FieldError(path: childPath(key), message: "\(text) is out of range") }
        return number
    }

    package func optionalDate(_ key: String) throws(FieldError) -> Date? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw wrongType(key, expected: "an ISO 8601 date string", found: value)
        }
        guard let date = ISODate.parse(text) else {
            throw FieldError(path: childPath(key), message: "'\(Terminal.escape(text))' is not an ISO 8601 date")
        }
        return date
    }

    package func date(_ key: String) throws(FieldError) -> Date {
        guard let date = try optionalDate(key) else { throw missing(key) }
        return date
    }

    package func optionalObject(_ key: String) throws(FieldError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        return try FieldReader(value, path: childPath(key))
    }

    package func optionalArray(_ key: String) throws(FieldError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw wrongType(key, expected: "an array", found: value) }
        return items
    }
}
