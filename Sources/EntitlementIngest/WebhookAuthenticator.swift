import EntitlementModel
import EntitlementTrust

/// The one place where requests are authenticated: secret comparisons and signed-data checks.
///
/// Adapters ask it; they never compare a secret or check a signature themselves. Secrets come
/// from `SecretsFile`; the checks from EntitlementTrust (libcrypto).
package struct WebhookAuthenticator: Sendable {
    package var secrets: SecretsFile?
    /// Checks App Store JWS against Apple's root (and any roots the secrets file's `appstore`
    /// entry adds); nil only when that entry could not be used, and then App Store data is refused.
    var appStore: AppStoreSignedDataVerifier?

    package init(secrets: SecretsFile?, appStore: AppStoreSignedDataVerifier?) {
        self.secrets = secrets
        self.appStore = appStore
    }

    /// Checks a header that must equal a configured value exactly (RevenueCat, Adapty and
    /// Qonversion `Authorization`): 401 when the request has none, 403 when no value is
    /// configured or it differs. Compared in constant time.
    func requireHeader(_ request: WebhookRequest, header: String, vendor: Vendor, secretKey: String) -> Authentication {
        guard request.overHTTP else { return .accepted(Self.localInput) }
        guard let expected = secrets?.string(vendor, secretKey) else {
            let file = secrets?.path ?? "the secrets file"
            return .refused(status: 403, log: "\(vendor.rawValue): no \(vendor.rawValue).\(secretKey) in \(file); request refused")
        }
        guard let given = request.headers[header] else {
            return .refused(status: 401, log: "\(vendor.rawValue): request without an \(header) header; refused")
        }
        guard Self.constantTimeEquals(Array(given.utf8), Array(expected.utf8)) else {
            return .refused(status: 403, log: "\(vendor.rawValue): \(header) header does not match \(vendor.rawValue).\(secretKey); refused")
        }
        return .accepted("\(header) header")
    }

    /// What a local event (no HTTP, no headers) records as its verification.
    static let localInput = "local input (vouched for by the operator)"

    /// Checks an App Store JWS (signed payload, transaction or renewal info): chain to a trusted
    /// root, Apple's OIDs, validity at `signedDate`, ES256, and the configured identity.
    /// Returns how it was verified, or throws `.unauthenticated`.
    func verifyAppStoreJWS(_ text: String) throws(EventRejection) -> String {
        try verifiedAppStoreJWS(text).verification
    }

    /// `verifyAppStoreJWS`, with the verified payload's JSON bytes: a JWS is verified once and
    /// its payload carried on to the mapper, never decoded or checked again.
    func verifiedAppStoreJWS(_ text: String) throws(EventRejection) -> (verification: String, payload: [UInt8]) {
        guard let appStore else { throw .unauthenticated("no App Store verifier: the secrets file's appstore entry is unusable") }
        do throws(SignedDataError) {
            let verified = try appStore.verifyDecoded(text)
            let verification = verified.signatureChecked ? "jws verified" : "jws of \(verified.environment ?? "local") data, accepted unsigned (allow_xcode)"
            return (verification, verified.payload)
        } catch {
            throw .unauthenticated("signed data refused: \(error.description)")
        }
    }

    private static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool { ConstantTime.equals(a, b) }
}

extension WebhookAuthenticator {
    /// The verification an event of `request` records: the header that authenticated it, or local input.
    package func verification(of request: WebhookRequest, header: String) -> String {
        request.overHTTP ? header : Self.localInput
    }
}
