import FoundationEssentials

/// The members of an App Store payload that the identity and date checks read.
///
/// Transactions and renewal info carry them at the top; notifications under `data`,
/// `summary` or `externalPurchaseToken`. Every member is optional and a member of another
/// type reads as absent: the shapes are Apple's, and the verifier must not be the place
/// where an odd but validly signed payload fails.
struct SignedPayloadClaims: Decodable {
    var signedDate: Int64?
    var environment: String?
    var bundleId: String?
    var appAppleId: Int64?
    var notificationType: String?
    var nested: Nested?

    /// `data`, `summary` or `externalPurchaseToken` of a notification.
    struct Nested: Decodable {
        var environment: String?
        var bundleId: String?
        var appAppleId: Int64?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            environment = container.lenient(String.self, .environment)
            bundleId = container.lenient(String.self, .bundleId)
            appAppleId = container.lenient(Int64.self, .appAppleId)
        }
    }

    enum Key: String, CodingKey {
        case signedDate, environment, bundleId, appAppleId, notificationType, data, summary, externalPurchaseToken
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        signedDate = container.lenient(Int64.self, .signedDate) ?? container.lenient(Double.self, .signedDate).flatMap { Int64(exactly: $0.rounded(.down)) }
        environment = container.lenient(String.self, .environment)
        bundleId = container.lenient(String.self, .bundleId)
        appAppleId = container.lenient(Int64.self, .appAppleId)
        notificationType = container.lenient(String.self, .notificationType)
        nested = container.lenient(Nested.self, .data) ?? container.lenient(Nested.self, .summary) ?? container.lenient(Nested.self, .externalPurchaseToken)
    }

    /// The claims of a payload's JSON, nil when it is not a JSON object.
    static func read(_ payload: [UInt8]) -> SignedPayloadClaims? {
        try? JSONDecoder().decode(SignedPayloadClaims.self, from: Data(payload))
    }

    /// The environment wherever the payload puts it.
    var anyEnvironment: String? { environment ?? nested?.environment }
    /// The bundle id wherever the payload puts it.
    var anyBundleID: String? { bundleId ?? nested?.bundleId }
    /// The app Apple id wherever the payload puts it.
    var anyAppAppleID: Int64? { appAppleId ?? nested?.appAppleId }
}

private extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? { (try? decodeIfPresent(type, forKey: key)) ?? nil }
}
