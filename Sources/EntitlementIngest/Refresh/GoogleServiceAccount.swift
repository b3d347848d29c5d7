import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementTrust

/// A Google service account's JSON key file (`googleplay.service_account_file`), as the Cloud
/// console downloads it: `client_email`, `private_key` (RSA, PEM), `private_key_id`, `token_uri`.
struct GoogleServiceAccount: Sendable {
    static let keyName = "googleplay.service_account_file"
    static let scope = "https://www.googleapis.com/auth/androidpublisher"

    var clientEmail: String
    var keyID: String
    var tokenURI: String
    let key: PrivateKey

    /// The file at `path`, held to the key-file rule (exit 2 naming it when refused or unusable).
    static func load(_ path: String) throws(EntitlementError) -> GoogleServiceAccount {
        let bytes = try KeyFile.read(path, key: keyName)
        func unusable(_ why: String) -> EntitlementError { .vendorAPI(.keyFile(key: keyName, path: path, why: why)) }
        guard case .object(let object)? = try? JSONParser.parse(bytes) else { throw unusable("it is not a service account's JSON key file") }
        func field(_ name: String) throws(EntitlementError) -> String {
            guard let value = object[name]?.stringValue, !value.isEmpty else { throw unusable("it has no \"\(name)\"") }
            return value
        }
        let email = try field("client_email"), keyID = try field("private_key_id"), tokenURI = try field("token_uri")
        guard tokenURI.hasPrefix("https://") || tokenURI.hasPrefix("http://"), VendorAPIClient.isHeaderSafe(tokenURI) else {
            throw unusable("its token_uri is not an http(s) URL")
        }
        guard let key = PrivateKey(pem: Array(try field("private_key").utf8)), key.kind == .rsa else {
            throw unusable("its private_key is not an RSA private key in PEM")
        }
        return GoogleServiceAccount(clientEmail: email, keyID: keyID, tokenURI: tokenURI, key: key)
    }

    /// The RS256 JWT Google exchanges for an access token: `iss` the account, `scope` Play's,
    /// `aud` the token URI, valid from `issuedAt` for an hour (Google refuses longer).
    func assertion(issuedAt: Int) throws(EntitlementError) -> String {
        let header = JSONObject([("alg", .string("RS256")), ("kid", .string(keyID)), ("typ", .string("JWT"))])
        let claims = JSONObject([
            ("aud", .string(tokenURI)), ("exp", .int(issuedAt + 3600)), ("iat", .int(issuedAt)),
            ("iss", .string(clientEmail)), ("scope", .string(Self.scope)),
        ])
        let writer = JSONWriter(style: .compact, sortKeys: false)
        let signingInput = Base64URL.encode(Array(writer.string(.object(header)).utf8)) + "." + Base64URL.encode(Array(writer.string(.object(claims)).utf8))
        guard let signature = key.signRS256(Array(signingInput.utf8)) else {
            throw .vendorAPI(.keyFile(key: Self.keyName, path: clientEmail, why: "libcrypto could not sign with its private_key"))
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
