import COpenSSL

/// A private key read from PEM (`BEGIN PRIVATE KEY`, PKCS #8, as Google's service-account
/// files and Apple's `.p8` files hold it; `BEGIN RSA PRIVATE KEY` / `BEGIN EC PRIVATE KEY` too),
/// for signing the JWTs the vendors' APIs ask for. An encrypted key is refused (nothing prompts).
package final class PrivateKey: @unchecked Sendable {
    /// The key's kind, as the JWS `alg` it can sign.
    package enum Kind: Sendable, Equatable { case rsa, ecP256, other }

    let key: OpaquePointer

    /// Nil when `pem` holds no private key libcrypto reads.
    package init?(pem: [UInt8]) {
        guard !pem.isEmpty else { return nil }
        let read: OpaquePointer? = pem.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, entitlement_no_passphrase, nil)
        }
        ERR_clear_error()
        guard let read else { return nil }
        key = read
    }

    /// A key generated here (tests: a service account's RSA key).
    init(owning key: OpaquePointer) { self.key = key }

    deinit { EVP_PKEY_free(key) }

    package var kind: Kind {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: return .rsa
        case EVP_PKEY_EC: return ES256.isP256(key) ? .ecP256 : .other
        default: return .other
        }
    }

    /// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) of `message`; nil unless this is an RSA key.
    package func signRS256(_ message: [UInt8]) -> [UInt8]? {
        guard kind == .rsa else { return nil }
        return Digest.signSHA256(message, with: key)
    }
}
