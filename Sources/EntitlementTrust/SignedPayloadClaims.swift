/// The members of an App Store payload that the identity and date checks read.
///
/// Transactions and renewal info carry them at the top; notifications only where Apple puts
/// them: under `data`, `summary`, `externalPurchaseToken` (whose environment is Sandbox when
/// `externalPurchaseId` starts with `SANDBOX`, else Production, as Apple's verifier reads it)
/// or `appData`. A notification's own top-level `environment` or `bundleId` is not Apple's and
/// is never read: it cannot make a notification pass for Xcode data. Every member is optional and a member of another
/// type reads as absent: the shapes are Apple's, and the verifier must not be the place
/// where an odd but validly signed payload fails.
struct SignedPayloadClaims {
    var signedDate: Int64?
    var environment: String?
    var bundleId: String?
    var appAppleId: Int64?
    var notificationType: String?
    var nested: Nested?

    /// `data`, `summary`, `externalPurchaseToken` or `appData` of a notification.
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
        for key in ["data", "summary", "externalPurchaseToken", "appData"] {
            guard let inner = json[key], case .object = inner else { continue }
            var environment = inner["environment"]?.string
            if key == "externalPurchaseToken", let id = inner["externalPurchaseId"]?.string {
                environment = id.hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            }
            claims.nested = Nested(environment: environment, bundleId: inner["bundleId"]?.string, appAppleId: inner["appAppleId"]?.int64)
            break
        }
        return claims
    }

    /// True for a notification (it has a `notificationType`).
    var isNotification: Bool { notificationType != nil }
    /// The environment where Apple puts it: a notification's nested object, else the top.
    var anyEnvironment: String? { isNotification ? nested?.environment : environment }
    /// The bundle id where Apple puts it.
    var anyBundleID: String? { isNotification ? nested?.bundleId : bundleId }
    /// The app Apple id where Apple puts it.
    var anyAppAppleID: Int64? { isNotification ? nested?.appAppleId : appAppleId }
}
