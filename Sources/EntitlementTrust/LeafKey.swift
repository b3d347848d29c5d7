import COpenSSL
import Synchronization

/// A leaf certificate's P-256 key made ready for ES256 once, when its chain is first verified:
/// one `EVP_PKEY_CTX` set up for verification, kept with the chain (`ChainVerifier.Verified`),
/// so that each JWS costs its SHA-256 and one ECDSA verification, not a new digest context
/// with its fetches of the algorithms (one context per distinct leaf).
///
/// `@unchecked Sendable`: the context is used under `lock` only; the certificate that owns
/// the key lives as long as this.
final class LeafKey: @unchecked Sendable {
    /// The certificate owning the key (`X509_get0_pubkey`).
    let certificate: Certificate
    private let context: OpaquePointer
    private let lock = Mutex(())

    /// Nil when the certificate has no key libcrypto can verify with.
    init?(_ certificate: Certificate) {
        guard let key = certificate.publicKey, let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1 else {
            EVP_PKEY_CTX_free(context)
            ERR_clear_error()
            return nil
        }
        self.certificate = certificate
        self.context = context
    }

    deinit { EVP_PKEY_CTX_free(context) }

    /// Checks the DER `ECDSA-Sig-Value` over the SHA-256 `digest`.
    func verify(der: [UInt8], digest: [UInt8]) -> Bool {
        let result = lock.withLock { _ in
            der.withUnsafeBufferPointer { sig in
                digest.withUnsafeBufferPointer { EVP_PKEY_verify(context, sig.baseAddress, sig.count, $0.baseAddress, $0.count) }
            }
        }
        ERR_clear_error()
        return result == 1
    }
}
