import COpenSSL

/// Comparison of secrets whose time does not depend on where they differ.
package enum ConstantTime {
    /// True when `a` and `b` hold the same bytes, compared with libcrypto's `CRYPTO_memcmp`.
    ///
    /// Unequal lengths answer false at once: the time then tells only the lengths, which
    /// for tokens and MACs are public anyway.
    package static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let left = Array(a)
        let right = Array(b)
        guard left.count == right.count else { return false }
        guard !left.isEmpty else { return true }
        return left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in CRYPTO_memcmp(l.baseAddress, r.baseAddress, l.count) == 0 }
        }
    }
}
