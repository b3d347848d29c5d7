/// The members of an App Store payload that the identity and date checks read.
///
/// Transactions and renewal info carry them at the top; notifications under `data`,
/// `summary` or `externalPurchaseToken`. Every member is optional and a member of another
/// type reads as absent: the shapes are Apple's, and the verifier must not be the place
/// where an odd but validly signed payload fails.
struct SignedPayloadClaims {
    var signedDate: Int64?
    var environment: String?
    var bundleId: String?
    var appAppleId: Int64?
    var notificationType: String?
    var nested: Nested?

    /// `data`, `summary` or `externalPurchaseToken` of a notification.
    struct Nested {
        var environment: String?
        var bundleId: String?
        var appAppleId: Int64?
    }

    /// The claims of a payload's JSON, nil when it is not a JSON object.
    static func read(_ payload: [UInt8]) -> SignedPayloadClaims? {
        guard let json = TrustJSON.parse(payload), case .object = json else { return nil }
        var claims = SignedPayloadClaims()
        claims.signedDate = json["signedDate"]?.int64
        claims.environment = json["environment"]?.string
        claims.bundleId = json["bundleId"]?.string
        claims.appAppleId = json["appAppleId"]?.int64
        claims.notificationType = json["notificationType"]?.string
        for key in ["data", "summary", "externalPurchaseToken"] {
            guard let inner = json[key], case .object = inner else { continue }
            claims.nested = Nested(environment: inner["environment"]?.string, bundleId: inner["bundleId"]?.string, appAppleId: inner["appAppleId"]?.int64)
            break
        }
        return claims
    }

    /// The environment wherever the payload puts it.
    var anyEnvironment: String? { environment ?? nested?.environment }
    /// The bundle id wherever the payload puts it.
    var anyBundleID: String? { bundleId ?? nested?.bundleId }
    /// The app Apple id wherever the payload puts it.
    var anyAppAppleID: Int64? { appAppleId ?? nested?.appAppleId }
}
