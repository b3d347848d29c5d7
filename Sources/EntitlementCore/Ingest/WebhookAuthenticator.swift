/// The one place where requests are authenticated: secret comparisons and signed-data checks.
///
/// Adapters ask it; they never compare a secret themselves. Secrets come from `SecretsFile`.
package struct WebhookAuthenticator: Sendable {
    package var secrets: SecretsFile?
    /// Accept App Store data whose signature is not checked: an explicit choice for local test
    /// data (Xcode, StoreKit Testing), never the default.
    package var acceptUnverifiedAppStore: Bool

    package init(secrets: SecretsFile?, acceptUnverifiedAppStore: Bool = false) {
        self.secrets = secrets
        self.acceptUnverifiedAppStore = acceptUnverifiedAppStore
    }

    /// Checks a header that must equal a configured value exactly (RevenueCat, Adapty and
    /// Qonversion `Authorization`): 401 when the request has none, 403 when no value is
    /// configured or it differs. Compared in constant time.
    package func requireHeader(_ request: WebhookRequest, header: String, vendor: Vendor, secretKey: String) -> Authentication {
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
    package static let localInput = "local input (vouched for by the operator)"

    /// Checks an App Store JWS (signed payload, transaction or renewal info).
    /// Returns how it was verified, or throws `.unauthenticated`.
    package func verifyAppStoreJWS(_ text: String) throws(EventRejection) -> String {
        if acceptUnverifiedAppStore { return "jws not verified (accepted by configuration)" }
        throw .unauthenticated("App Store signature verification is not available in this build; set ENTITLEMENT_APPSTORE_UNVERIFIED=1 only for local test data")
    }

    /// Byte-wise comparison whose time depends only on the lengths.
    private static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}

extension WebhookAuthenticator {
    /// The verification an event of `request` records: the header that authenticated it, or local input.
    package func verification(of request: WebhookRequest, header: String) -> String {
        request.overHTTP ? header : Self.localInput
    }
}
