/// Stripe's webhook signature: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`.
///
/// The signed string is `"<t>." + raw body`, under HMAC-SHA256 keyed with the secret's own
/// UTF-8 bytes (`whsec_…` is not decoded). Several `v1` values appear while a secret is
/// rolled, and several secrets may be configured for the same reason: any pair matching
/// is enough. Every comparison is constant-time.
package enum StripeSignature {
    /// Checks `header` against the raw `payload` at `now` (Unix seconds, injected).
    ///
    /// Only age is bounded, as Stripe's own libraries do: a timestamp more than `tolerance`
    /// seconds before `now` is refused; one from the future is not.
    package static func verify(header: String, payload: [UInt8], secrets: [String], now: Int64, tolerance: Int64 = 300) -> StripeSignatureVerdict {
        var timestamps: [Substring] = []
        var signatures: [Substring] = []
        for item in header.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingSpaces
            if key == "t" { timestamps.append(pair[1].trimmingSpaces) }
            if key == "v1" { signatures.append(pair[1].trimmingSpaces) }
        }
        guard timestamps.count == 1, let t = Int64(timestamps[0]) else { return .missingTimestamp }
        guard !signatures.isEmpty else { return .missingV1Signature }
        let age = now - t
        guard age <= tolerance else { return .timestampTooOld(age: age, tolerance: tolerance) }
        let signed = Array(timestamps[0].utf8) + [UInt8(ascii: ".")] + payload
        var matched = false
        for secret in secrets where !secret.isEmpty {
            let expected = Array(Digest.hex(Digest.hmacSHA256(key: Array(secret.utf8), message: signed)).utf8)
            for signature in signatures {
                // No early exit: every pair is compared, whatever matched before.
                if ConstantTime.equals(expected, signature.utf8) { matched = true }
            }
        }
        return matched ? .valid : .signatureMismatch
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var slice = self
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return slice
    }
}
