import Glibc
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// The webhook secrets: a JSON file outside the store (which git shares), the user's own
/// with mode 0600 (docs/ingest.md, "Secrets"). Never copied into the store, spool or logs.
package struct SecretsFile: Sendable, Equatable {
    /// Each vendor's entry as written: `{"authorization": "Bearer …"}`, ….
    package var entries: [String: JSONObject]
    /// Where it was read from, for messages.
    package var path: String

    package static let environmentVariable = "ENTITLEMENT_SECRETS"

    /// `--secrets FILE`, else `$ENTITLEMENT_SECRETS`, else `$XDG_CONFIG_HOME/entitlement/secrets.json`
    /// (else `~/.config/…`).
    package static func location(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return "\(config)/entitlement/secrets.json" }
        return "\(environment["HOME"] ?? "")/.config/entitlement/secrets.json"
    }

    /// The file at `path`; nil when there is none (every vendor that needs a secret is then refused).
    /// Refused (exit 2) unless it is a regular file owned by this user that no one else may read or write.
    package static func load(_ path: String) throws(EntitlementError) -> SecretsFile? {
        // lstat, then a read that never follows a link nor waits on a FIFO (`.storeFile`), both through the seam.
        guard let status = try FileSystem.system.status(path) else { return nil }
        if status.st_mode & S_IFMT == S_IFLNK { throw refused(path, "is a symbolic link") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refused(path, "is not a regular file") }
        guard status.st_uid == geteuid() else { throw refused(path, "is not owned by this user (uid \(geteuid()))") }
        guard status.st_mode & 0o077 == 0 else {
            throw refused(path, "has mode 0\(String(status.st_mode & 0o777, radix: 8)); others may read it")
        }
        guard let bytes = try FileSystem.system.readFile(path) else { return nil }
        guard case .object(let root)? = try? JSONParser.parse(bytes) else {
            throw .invalidFile(path: path, detail: "not a JSON object of vendor entries (see docs/ingest.md, \"Secrets\")")
        }
        var entries: [String: JSONObject] = [:]
        for (key, value) in root.entries {
            guard case .object(let entry) = value else {
                throw .invalidFile(path: path, detail: "\"\(Terminal.escape(key))\" must be an object")
            }
            entries[key] = entry
        }
        return SecretsFile(entries: entries, path: path)
    }

    /// The string `key` of `vendor`'s entry, if set.
    package func string(_ vendor: Vendor, _ key: String) -> String? {
        guard case .string(let value)? = entries[vendor.rawValue]?[key], !value.isEmpty else { return nil }
        return value
    }

    /// The strings of `key` (one string or a list), e.g. Stripe's `signing_secrets` while one is rotated.
    package func strings(_ vendor: Vendor, _ key: String) -> [String] {
        switch entries[vendor.rawValue]?[key] {
        case .string(let value)?: return value.isEmpty ? [] : [value]
        case .array(let items)?: return items.compactMap { $0.stringValue }.filter { !$0.isEmpty }
        default: return []
        }
    }

    private static func refused(_ path: String, _ why: String) -> EntitlementError {
        .usage("refusing the secrets file \(Terminal.escape(path)): it \(why).",
               hint: "It must be your own regular file with mode 0600: chmod 600 \(Terminal.escape(path))")
    }
}
