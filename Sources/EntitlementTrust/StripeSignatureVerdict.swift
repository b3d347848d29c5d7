/// The answer about one `Stripe-Signature` header: valid, or the check that failed.
package enum StripeSignatureVerdict: Equatable, Sendable, CustomStringConvertible {
    /// One of the header's `v1` values is the HMAC of `t.` and the body under one of the secrets.
    case valid
    /// The header has no single integer `t=` timestamp.
    case missingTimestamp
    /// The header has no `v1=` signature (a `v0` alone does not count).
    case missingV1Signature
    /// The timestamp is more than the tolerance older than now (a replay).
    case timestampTooOld(age: Int64, tolerance: Int64)
    /// No `v1` value matches any secret.
    case signatureMismatch

    /// One line naming the check, for logs and the webhook's answer.
    package var description: String {
        switch self {
        case .valid: "Stripe-Signature is valid"
        case .missingTimestamp: "Stripe-Signature has no t= timestamp"
        case .missingV1Signature: "Stripe-Signature has no v1 signature"
        case .timestampTooOld(let age, let tolerance): "Stripe-Signature timestamp is \(age) s old, more than the \(tolerance) s tolerance"
        case .signatureMismatch: "Stripe-Signature does not match the payload under any configured secret"
        }
    }
}
