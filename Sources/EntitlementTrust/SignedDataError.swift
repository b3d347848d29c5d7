/// Why a piece of signed App Store data was refused: each case names the check that failed.
///
/// The descriptions are a contract, stated in docs/security.md; tests compare the
/// values with `==` and the CLI prints the description after the file's name.
package enum SignedDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not `header.payload.signature` of base64url text (the count of segments found).
    case segmentCount(Int)
    /// A segment is not base64url, or the header or payload is not a JSON object.
    case malformed(String)
    /// The header's `alg` is not `ES256` (the value found, or nil when absent).
    case algorithm(String?)
    /// The header has no `x5c` array.
    case missingCertificateChain
    /// `x5c` does not hold exactly three certificates.
    case certificateCount(Int)
    /// `x5c[index]` is not base64 of a DER X.509 certificate.
    case unreadableCertificate(index: Int)
    /// The leaf and intermediate do not chain to a configured root (OpenSSL's reason).
    case untrustedChain(String)
    /// The leaf lacks 1.2.840.113635.100.6.11.1.
    case leafOID
    /// The intermediate lacks 1.2.840.113635.100.6.2.1.
    case intermediateOID
    /// Some certificate of the chain is not valid at the effective date (Unix seconds).
    case notValidAt(Int64)
    /// The payload has no `signedDate` and no fallback date was given.
    case missingSignedDate
    /// The leaf's key is not an EC P-256 key, so ES256 cannot apply.
    case leafKeyNotP256
    /// The signature is not 64 bytes of R‖S, or R or S is 0 or not below the curve order.
    case malformedSignature(String)
    /// The ES256 signature over `header.payload` does not verify under the leaf's key.
    case signatureMismatch
    /// The payload's bundle id (nil when absent) is not the configured one.
    case bundleID(found: String?, expected: String)
    /// A production notification's `appAppleId` (nil when absent) is not the configured one.
    case appAppleID(found: Int64?, expected: Int64)
    /// The payload's environment (nil when absent) is not the expected one.
    case environment(found: String?, expected: String)
    /// `Xcode` or `LocalTesting` data without the explicit choice to accept it.
    case xcodeNotAllowed(String)
    /// `Xcode`/`LocalTesting` data, accepted unsigned, dated (Unix seconds) beyond the allowed skew after now.
    case signedInFuture(Int64)
    /// A configured trust root (its index) is not a DER or PEM certificate.
    case unreadableTrustRoot(Int)

    package var description: String {
        switch self {
        case .segmentCount(let count): "not a compact JWS: \(count) segment\(count == 1 ? "" : "s"), not 3"
        case .malformed(let detail): "not a compact JWS: \(detail)"
        case .algorithm(let alg): "JWS algorithm \(alg.map { "'\($0)'" } ?? "(none)") is not ES256"
        case .missingCertificateChain: "JWS header has no x5c certificate chain"
        case .certificateCount(let count): "x5c holds \(count) certificate\(count == 1 ? "" : "s"), not 3"
        case .unreadableCertificate(let index): "x5c[\(index)] is not a DER certificate"
        case .untrustedChain(let reason): "certificate chain does not lead to a trusted root (\(reason))"
        case .leafOID: "leaf certificate lacks Apple's receipt-signing OID 1.2.840.113635.100.6.11.1"
        case .intermediateOID: "intermediate certificate lacks Apple's WWDR OID 1.2.840.113635.100.6.2.1"
        case .notValidAt(let date): "certificate chain is not valid at signedDate \(TrustDate.iso(date))"
        case .missingSignedDate: "payload has no signedDate to check the certificates' validity at"
        case .leafKeyNotP256: "leaf certificate's key is not P-256, as ES256 needs"
        case .malformedSignature(let detail): "signature is malformed: \(detail)"
        case .signatureMismatch: "signature does not match"
        case .bundleID(let found, let expected): "bundle id \(found ?? "(none)") is not this store's \(expected)"
        case .appAppleID(let found, let expected): "app Apple id \(found.map(String.init) ?? "(none)") is not this store's \(expected)"
        case .environment(let found, let expected): "environment \(found ?? "(none)") is not the expected \(expected)"
        case .xcodeNotAllowed(let environment): "environment \(environment) is accepted only with --allow-xcode"
        case .signedInFuture(let date): "signedDate \(TrustDate.iso(date)) of data accepted unsigned is more than \(AppStoreSignedDataVerifier.futureSkew) seconds after the current time"
        case .unreadableTrustRoot(let index): "trust root #\(index + 1) is not a DER or PEM certificate"
        }
    }
}
