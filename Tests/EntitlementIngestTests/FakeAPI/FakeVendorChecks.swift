import Foundation
@testable import EntitlementBasics
@testable import EntitlementTrust

/// The checks each vendor makes of a request, for `FakeVendorAPI.require`, and their refusals
/// in the vendor's own shapes.
enum FakeVendorChecks {
    /// Stripe: `Authorization: Bearer <api_key>`, else 401 with Stripe's error object.
    static func stripe(_ key: String) -> FakeVendorAPI.Check {
        { request in
            request.headers["authorization"] == "Bearer \(key)" ? nil
                : .status(401, #"{"error": {"message": "Invalid API Key provided: rk_test_****", "type": "invalid_request_error"}}"#)
        }
    }

    /// Adapty's server-side API: `Authorization: Api-Key <api_key>`, else 401.
    static func adapty(_ key: String) -> FakeVendorAPI.Check {
        { request in
            request.headers["authorization"] == "Api-Key \(key)" ? nil
                : .status(401, #"{"errors": [{"source": "non_field_errors", "errors": ["Invalid Api-Key"]}], "error_code": "unauthorized", "status_code": 401}"#)
        }
    }

    /// Google APIs: `Authorization: Bearer <access token the fake token endpoint issued>`, else 401.
    static func googleBearer(_ google: FakeGoogleAuth) -> FakeVendorAPI.Check {
        { request in
            guard let value = request.headers["authorization"], value.hasPrefix("Bearer "), google.issued(String(value.dropFirst(7))) else {
                return .status(401, #"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}"#)
            }
            return nil
        }
    }
}

/// Google's OAuth token endpoint as a service account meets it: `POST token_uri` with
/// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=JWT`, where the JWT must be
/// RS256 under the account's key (verified with its public key), `kid` the key id, and claims
/// `iss` = client_email, `scope` the Play scope, `aud` = token_uri, `exp` at most an hour after
/// `iat`. Answers `{"access_token": …, "expires_in": 3599, "token_type": "Bearer"}`.
final class FakeGoogleAuth: @unchecked Sendable {
    static let scope = "https://www.googleapis.com/auth/androidpublisher"
    let clientEmail = "refresh@example-project.iam.gserviceaccount.com"
    let keyID = "0123456789abcdef0123456789abcdef01234567"
    let key = TestRSAKey.shared
    let tokenPath = "/token"
    private let lock = NSLock()
    private var tokens: [String] = []
    /// Each verified assertion's claims, in order.
    private(set) var claims: [[String: Any]] = []

    /// Serves the token endpoint on `api` (a server of its own: `--api-base` must never move it).
    func install(on api: FakeVendorAPI) {
        let tokenURI = api.base + tokenPath
        api.on("POST", tokenPath) { [self] request in answer(request, tokenURI: tokenURI) }
    }

    func issued(_ token: String) -> Bool { lock.withLock { tokens.contains(token) } }

    /// The service-account key file's JSON, as the Cloud console downloads it.
    func serviceAccountJSON(tokenURI: String, privatePEM: String? = nil) -> String {
        let object: [String: Any] = [
            "type": "service_account", "project_id": "example-project", "private_key_id": keyID,
            "private_key": privatePEM ?? key.privatePEM, "client_email": clientEmail, "client_id": "109876543210987654321",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": tokenURI,
        ]
        return String(data: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!
    }

    private func answer(_ request: FakeRequest, tokenURI: String) -> FakeAnswer {
        let form = request.form
        let refusal = FakeAnswer.status(400, #"{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}"#)
        guard request.headers["content-type"] == "application/x-www-form-urlencoded",
              form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let jwt = form["assertion"] else { return refusal }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(Array(parts[0].utf8)), let claimBytes = Base64URL.decode(Array(parts[1].utf8)),
              let signature = Base64URL.decode(Array(parts[2].utf8)),
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any] else { return refusal }
        guard RS256.verify(signature: signature, message: Array("\(parts[0]).\(parts[1])".utf8), publicKeyPEM: Array(key.publicPEM.utf8)),
              header["alg"] as? String == "RS256", header["kid"] as? String == keyID,
              claims["iss"] as? String == clientEmail, claims["scope"] as? String == Self.scope, claims["aud"] as? String == tokenURI,
              let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int, exp > iat, exp - iat <= 3600 else { return refusal }
        let token = lock.withLock { () -> String in
            let token = "ya29.fake-\(tokens.count + 1)"
            tokens.append(token)
            self.claims.append(claims)
            return token
        }
        return .json(#"{"access_token": "\#(token)", "expires_in": 3599, "token_type": "Bearer"}"#)
    }
}
