import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementStore
import EntitlementTrust

/// The store's App Store identity (bundle id, app Apple id, environment) and the trust that
/// checks signed App Store data, resolved once, the same way, for every command that takes
/// such data: `import`, `ingest`, `webhook` and the vendor-API commands (docs/security.md,
/// "The store's App Store identity").
///
/// Identity comes from `config.json`'s `app_store` and the secrets file's `appstore` entry
/// together: a field set in one is the store's; a field set in both must be equal, or the
/// run is refused (exit 2; `webhook` answers 403 and logs why) before any data is read.
/// Trust: Apple Root CA - G3, plus `appstore.trust_roots` and any roots the command adds;
/// `allow_xcode` from the entry or the command.
package struct AppStoreSettings: Sendable, Equatable {
    /// The identity every signed payload must match.
    package var identity: AppStoreIdentity
    /// `appstore.allow_xcode`.
    package var allowXcode: Bool
    /// `appstore.trust_roots`: certificate files, in order.
    var trustRootFiles: [String]
    /// The secrets file the entry came from (nil: none), for messages.
    package var secretsPath: String?

    package init(identity: AppStoreIdentity = AppStoreIdentity(), allowXcode: Bool = false, trustRootFiles: [String] = [], secretsPath: String? = nil) {
        self.identity = identity
        self.allowXcode = allowXcode
        self.trustRootFiles = trustRootFiles
        self.secretsPath = secretsPath
    }

    /// The settings of `store` (its `config.json`) with the secrets file's `appstore` entry.
    package static func resolve(store: EntitlementStore, secrets: SecretsFile?) throws(EntitlementError) -> AppStoreSettings {
        try resolve(config: store.loadConfiguration().appStore, secrets: secrets)
    }

    /// `config.json`'s identity with the secrets file's `appstore` entry; refused when they disagree.
    package static func resolve(config: AppStoreIdentity, secrets: SecretsFile?) throws(EntitlementError) -> AppStoreSettings {
        let file = secrets?.path ?? "the secrets file"
        let entry = secrets?.entries[Vendor.appstore.rawValue] ?? JSONObject()
        var settings = AppStoreSettings(identity: config, secretsPath: secrets?.path)
        settings.identity.bundleID = try merge("bundle_id", config.bundleID, try text(entry, "bundle_id", file: file), file: file)
        var appleID: Int64?
        switch entry["app_apple_id"] {
        case nil, .null?: appleID = nil
        case .number(let number)?:
            guard let value = Int64(number) else { throw invalid(file, "appstore.app_apple_id must be an integer") }
            appleID = value
        default: throw invalid(file, "appstore.app_apple_id must be an integer")
        }
        settings.identity.appAppleID = try merge("app_apple_id", config.appAppleID, appleID, file: file)
        settings.identity.environment = try merge("environment", config.environment, try text(entry, "environment", file: file), file: file)
        switch entry["allow_xcode"] {
        case nil, .null?: break
        case .bool(let flag)?: settings.allowXcode = flag
        default: throw invalid(file, "appstore.allow_xcode must be true or false")
        }
        switch entry["trust_roots"] {
        case nil, .null?: break
        case .array(let items)?:
            for item in items {
                guard case .string(let path) = item, !path.isEmpty else { throw invalid(file, "appstore.trust_roots must be a list of file names") }
                settings.trustRootFiles.append(path)
            }
        default: throw invalid(file, "appstore.trust_roots must be a list of file names")
        }
        return settings
    }

    /// The verifier of a run: Apple Root CA - G3 with `trustRootFiles` and `addedRoots` (the
    /// command's own, e.g. `import --trust-root`), strict X.509 off exactly when a root is added
    /// (Apple's test certificates lack key identifiers); `now` judges payloads without `signedDate`.
    package func verifier(addedRoots: [String] = [], allowXcode added: Bool = false, now: Date) throws(EntitlementError) -> AppStoreSignedDataVerifier {
        let files = addedRoots + trustRootFiles
        var roots: [[UInt8]] = []
        for (index, path) in files.enumerated() {
            roots.append(try Self.readRoot(path, fromSecrets: index >= addedRoots.count ? secretsPath ?? "the secrets file" : nil))
        }
        do throws(SignedDataError) {
            return try AppStoreSignedDataVerifier(trustRoots: roots, bundleID: identity.bundleID, appAppleID: identity.appAppleID,
                                                  environment: identity.environment, allowXcode: allowXcode || added, strict: roots.isEmpty,
                                                  fallbackDate: Int64(now.timeIntervalSince1970.rounded(.down)))
        } catch {
            guard case .unreadableTrustRoot(let index) = error else { throw .usage(error.description) }
            throw .usage("\(Terminal.escape(files[index])) is not a DER or PEM certificate.",
                         hint: index < addedRoots.count ? "Give a root certificate file." : "Fix appstore.trust_roots in \(Terminal.escape(secretsPath ?? "the secrets file")).")
        }
    }

    private static func readRoot(_ path: String, fromSecrets file: String?) throws(EntitlementError) -> [UInt8] {
        let named = file.map { "\(Terminal.escape($0)): appstore.trust_roots names \(Terminal.escape(path))" } ?? "trust root \(Terminal.escape(path))"
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.system.readFile(path, policy: .userFile)
        } catch {
            guard case .io(_, let message) = error else { throw error }
            throw .usage("\(named): \(message).")
        }
        guard let bytes else { throw .usage("\(named), which does not exist.") }
        return bytes
    }

    private static func text(_ entry: JSONObject, _ key: String, file: String) throws(EntitlementError) -> String? {
        switch entry[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value.isEmpty ? nil : value
        default: throw invalid(file, "appstore.\(key) must be a string")
        }
    }

    private static func merge<T: Equatable & CustomStringConvertible>(_ key: String, _ config: T?, _ secrets: T?, file: String) throws(EntitlementError) -> T? {
        guard let config, let secrets, config != secrets else { return config ?? secrets }
        throw .usage("config.json's app_store.\(key) is \(Terminal.escape(config.description)) but \(Terminal.escape(file))'s appstore.\(key) is \(Terminal.escape(secrets.description)): the store's App Store identity is ambiguous; nothing was read.",
                     hint: "Set \(key) in one of the two files, or make them equal (docs/security.md, \"The store's App Store identity\").")
    }

    private static func invalid(_ file: String, _ detail: String) -> EntitlementError {
        .usage("\(Terminal.escape(file)): \(detail).", hint: "See docs/ingest.md, \"Secrets\".")
    }
}
