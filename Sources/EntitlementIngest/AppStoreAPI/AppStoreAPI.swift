import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementTrust

/// The App Store Server API (developer.apple.com/documentation/appstoreserverapi), through
/// `VendorAPIClient` (curl, the request on its standard input), authenticated by a JWT signed
/// with the secrets file's in-app purchase key (`AppStoreAPIToken`), made for each request
/// from the run's clock and never stored (docs/security.md, "What leaves the machine").
///
/// The secrets file's `appstore` entry names `issuer_id`, `key_id` and `private_key_file`; the
/// bundle id and environment are the store's App Store identity (`AppStoreSettings`: config.json
/// and the entry together). Production → api.storekit.itunes.apple.com, Sandbox →
/// api.storekit-sandbox.itunes.apple.com; `--api-base` replaces either.
struct AppStoreAPI: Sendable {
    static let productionBase = "https://api.storekit.itunes.apple.com"
    static let sandboxBase = "https://api.storekit-sandbox.itunes.apple.com"
    static let credentialCheck = "appstore.key_id, appstore.issuer_id and appstore.private_key_file (an In-App Purchase key of this app's team) and the bundle id"

    let client: VendorAPIClient
    let base: String
    let token: AppStoreAPIToken
    let clock: @Sendable () -> Date

    init(client: VendorAPIClient, base: String, token: AppStoreAPIToken, clock: @escaping @Sendable () -> Date) {
        self.client = client
        self.base = base
        self.token = token
        self.clock = clock
    }

    /// The API of the secrets file's `appstore` entry and the store's identity; exit 2 (nothing
    /// asked) when a field is missing or the key file is refused.
    static func configured(secrets: SecretsFile?, settings: AppStoreSettings, secretsPath: String, apiBase: String?,
                                   client: VendorAPIClient, clock: @escaping @Sendable () -> Date) throws(EntitlementError) -> AppStoreAPI {
        func field(_ name: String) throws(EntitlementError) -> String {
            guard let value = secrets?.string(.appstore, name) else { throw .vendorAPI(.missingKey(key: "appstore.\(name)", file: secretsPath)) }
            guard VendorAPIClient.isHeaderSafe(value) else { throw .vendorAPI(.unusableKey(key: "appstore.\(name)", file: secretsPath)) }
            return value
        }
        let issuer = try field("issuer_id")
        let keyID = try field("key_id")
        let keyPath = try field("private_key_file")
        guard let bundleID = settings.identity.bundleID, VendorAPIClient.isHeaderSafe(bundleID) else {
            throw .vendorAPI(.missingKey(key: "appstore.bundle_id", file: secretsPath))
        }
        let base: String
        switch apiBase {
        case let given?: base = given
        case nil:
            switch settings.identity.environment ?? "Production" {
            case "Production": base = productionBase
            case "Sandbox": base = sandboxBase
            case let other:
                throw .usage("the App Store Server API has no \(Terminal.escape(other)) environment; the store's environment must be Production or Sandbox.",
                             hint: "Set appstore.environment in \(Terminal.escape(secretsPath)), or give --api-base.")
            }
        }
        let pem = try KeyFile.read(keyPath, key: "appstore.private_key_file")
        let key: ES256SigningKey
        do throws(ES256SigningKey.Problem) { key = try ES256SigningKey(pem: pem) } catch {
            throw .vendorAPI(.keyFile(key: "appstore.private_key_file", path: keyPath, why: error.description))
        }
        return AppStoreAPI(client: client, base: base, token: AppStoreAPIToken(key: key, keyID: keyID, issuerID: issuer, bundleID: bundleID), clock: clock)
    }

    /// `GET path` (which starts with `/`), the body of a 2xx answer.
    func get(_ path: String) throws(EntitlementError) -> (url: String, body: [UInt8]) {
        let url = URLComponent.join(base, path)
        return (url, try client.send(APIRequest(.get, url, headers: try headers(), credentialCheck: Self.credentialCheck)))
    }

    /// `POST path` with a JSON body.
    func post(_ path: String, json: [UInt8]) throws(EntitlementError) -> (url: String, body: [UInt8]) {
        let url = URLComponent.join(base, path)
        return (url, try client.send(APIRequest(.post, url, headers: try headers(), body: .json(json), credentialCheck: Self.credentialCheck)))
    }

    private func headers() throws(EntitlementError) -> [(name: String, value: String)] {
        guard let jwt = token.token(issuedAt: Int64(clock().timeIntervalSince1970.rounded(.down))) else {
            throw .vendorAPI(.keyFile(key: "appstore.private_key_file", path: "", why: "libcrypto could not sign with it"))
        }
        return [("Authorization", "Bearer \(jwt)"), ("Accept", "application/json")]
    }
}
