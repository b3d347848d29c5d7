import EntitlementJSON
import EntitlementModel
import EntitlementTrust

/// How `import` turns App Store JWS text into a payload: verified (the default, docs/security.md)
/// or only decoded (`--no-verify`, for data already verified elsewhere).
package struct JWSReader: Sendable {
    /// What is known of a payload's signature; stored on imported transactions (docs/store-format.md).
    package typealias Signature = SignedDataState

    /// Nil when signatures are not verified.
    package let verifier: AppStoreSignedDataVerifier?

    package init(verifier: AppStoreSignedDataVerifier?) {
        self.verifier = verifier
    }

    /// Decodes without verifying: `import --no-verify`, and harnesses that test the mapping alone.
    package static let decodeOnly = JWSReader(verifier: nil)

    /// The payload object of `text` with its signature state; nil when the payload is not a
    /// JSON object (a format error, not a trust one).
    package func payload(_ text: String) throws(SignedDataError) -> (object: JSONObject, signature: Signature)? {
        guard let verifier else { return JWS.payload(of: text).map { ($0, .unverified) } }
        let verified = try verifier.verifyDecoded(text)
        guard case .object(let object)? = try? JSONParser.parse(verified.payload, allowTrailingCommas: true) else { return nil }
        return (object, verified.signatureChecked ? .verified : .unverified)
    }
}
