import EntitlementJSON
/// The store's file format version. A missing `schema_version` means 1.
package enum SchemaVersion {
    /// The version this tool reads and writes.
    package static let current = 1

    /// Throws for a version this tool does not know; the message says to upgrade.
    static func check(_ reader: FieldReader) throws(FieldError) {
        let version = try reader.optionalInt(Profile.CodingKeys.schemaVersion.rawValue) ?? 1
        guard version <= current else { throw FieldError(path: "schema_version", message: newerMessage(version), newerSchemaVersion: version) }
        guard version >= 1 else { throw FieldError(path: "schema_version", message: "must be 1 or more, found \(version)") }
    }

    package static func newerMessage(_ version: Int) -> String {
        "schema_version \(version) is newer than this tool supports (\(current)); upgrade entitlement"
    }
}
