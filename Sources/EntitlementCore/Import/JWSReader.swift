import EntitlementTrust

/// How `import` turns App Store JWS text into a payload: verified (the default, docs/security.md)
/// or only decoded (`--no-verify`, for data already verified elsewhere).
struct JWSReader: Sendable {
    /// What is known of a payload's signature; stored on imported transactions (docs/store-format.md).
    enum Signature: String, Sendable {
        /// Every check of docs/security.md passed.
        case verified
        /// Decoded without verification (`--no-verify`, or Xcode data with `--allow-xcode`).
        case unverified
    }

    /// Nil when signatures are not verified.
    let verifier: AppStoreSignedDataVerifier?

    /// Decodes without verifying: `import --no-verify`, and harnesses that test the mapping alone.
    static let decodeOnly = JWSReader(verifier: nil)

    /// The payload object of `text` with its signature state; nil when the payload is not a
    /// JSON object (a format error, not a trust one).
    func payload(_ text: String) throws(SignedDataError) -> (object: JSONObject, signature: Signature)? {
        guard let verifier else { return JWS.payload(of: text).map { ($0, .unverified) } }
        let verified = try verifier.verifyDecoded(text)
        guard case .object(let object)? = try? JSONParser.parse(verified.payload, allowTrailingCommas: true) else { return nil }
        return (object, verified.signatureChecked ? .verified : .unverified)
    }
}
