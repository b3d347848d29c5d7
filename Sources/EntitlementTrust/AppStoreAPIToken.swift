/// The bearer token of the App Store Server API: a JWT signed ES256 with the in-app purchase
/// key from App Store Connect (developer.apple.com, "Generating JSON Web Tokens for API
/// requests").
///
/// Header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`; claims `iss` (the issuer id), `iat`,
/// `exp` (Apple refuses more than 60 minutes after `iat`), `aud` `appstoreconnect-v1` and
/// `bid` (the bundle id). Made fresh for each request from the run's clock; never stored.
package struct AppStoreAPIToken: Sendable {
    static let audience = "appstoreconnect-v1"
    /// How long a token is valid: well under Apple's 60-minute limit.
    package static let lifetime: Int64 = 20 * 60

    package var keyID: String
    package var issuerID: String
    package var bundleID: String
    package let key: ES256SigningKey

    package init(key: ES256SigningKey, keyID: String, issuerID: String, bundleID: String) {
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// The compact JWT issued at `issuedAt` (Unix seconds); nil only when libcrypto fails to sign.
    package func token(issuedAt: Int64) -> String? {
        let header = "{\"alg\":\"ES256\",\"kid\":\(Self.quoted(keyID)),\"typ\":\"JWT\"}"
        let claims = "{\"iss\":\(Self.quoted(issuerID)),\"iat\":\(issuedAt),\"exp\":\(issuedAt + Self.lifetime),"
            + "\"aud\":\"\(Self.audience)\",\"bid\":\(Self.quoted(bundleID))}"
        let input = TrustBase64.encodeURL(Array(header.utf8)) + "." + TrustBase64.encodeURL(Array(claims.utf8))
        guard let signature = key.sign(Array(input.utf8)) else { return nil }
        return input + "." + TrustBase64.encodeURL(signature)
    }

    /// A JSON string: quote, backslash and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
