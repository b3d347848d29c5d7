import EntitlementTrust

/// Settings `webhook` and `ingest` share: the secrets file (with the App Store entry that
/// configures verification), and the ingest actor.
package enum IngestSettings {
    package static let actorVariable = "ENTITLEMENT_INGEST_ACTOR"
    package static let defaultActor = "entitlement ingest <ingest@localhost>"

    /// `--actor`, else `$ENTITLEMENT_INGEST_ACTOR`, else `entitlement ingest <ingest@localhost>`.
    package static func actor(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let named = environment[actorVariable], !named.trimmingWhitespace.isEmpty { return named }
        return defaultActor
    }

    /// The authenticator over the secrets file (nil when there is none). A file that is
    /// refused (wrong owner or mode) is an error: exit 2, or 403 in `webhook`.
    package static func authenticator(secretsFlag: String?, environment: [String: String]) throws(EntitlementError) -> WebhookAuthenticator {
        let secrets = try SecretsFile.load(SecretsFile.location(flag: secretsFlag, environment: environment))
        return WebhookAuthenticator(secrets: secrets, appStore: try appStoreVerifier(secrets?.entries[Vendor.appstore.rawValue], file: secrets?.path))
    }

    /// The App Store verifier of the secrets file's `appstore` entry (docs/ingest.md, "App Store"):
    /// `bundle_id`, `app_apple_id`, `environment`, `allow_xcode`, and `trust_roots` (files, DER or PEM,
    /// trusted beside Apple Root CA - G3; for test chains).
    package static func appStoreVerifier(_ entry: JSONObject?, file: String?) throws(EntitlementError) -> AppStoreSignedDataVerifier {
        let entry = entry ?? JSONObject()
        var roots: [[UInt8]] = []
        var listed: [JSONValue] = []
        if case .array(let items)? = entry["trust_roots"] { listed = items }
        for case .string(let path) in listed {
            guard let bytes = try FileSystem.system.readFile(path, policy: .userFile) else {
                throw .invalidFile(path: file ?? "secrets", detail: "appstore.trust_roots names \(Terminal.escape(path)), which does not exist")
            }
            roots.append(bytes)
        }
        var appleID: Int64?
        if case .number(let text)? = entry["app_apple_id"] { appleID = Int64(text) }
        var allowXcode = false
        if case .bool(let flag)? = entry["allow_xcode"] { allowXcode = flag }
        do throws(SignedDataError) {
            return try AppStoreSignedDataVerifier(trustRoots: roots, bundleID: entry["bundle_id"]?.stringValue, appAppleID: appleID,
                                                  environment: entry["environment"]?.stringValue, allowXcode: allowXcode)
        } catch {
            throw .invalidFile(path: file ?? "secrets", detail: "appstore: \(error.description)")
        }
    }
}
