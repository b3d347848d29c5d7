import COpenSSL

/// An EC P-256 private key that signs ES256 (R‖S, 32 bytes each), read from PKCS#8 PEM as
/// App Store Connect hands it out (`AuthKey_KEYID.p8`), all through libcrypto.
///
/// The key stays in libcrypto's memory for the run; nothing here writes it anywhere.
package final class ES256SigningKey: @unchecked Sendable {
    // Immutable after init; libcrypto's signing with a shared EVP_PKEY is thread-safe.
    private let key: OpaquePointer

    /// Why a key file cannot sign.
    package enum Problem: Error, Equatable, Sendable {
        /// Not a PEM private key libcrypto reads.
        case unreadable
        /// A private key, but not EC on P-256.
        case notP256

        package var description: String {
            switch self {
            case .unreadable: return "it is not a PEM private key (PKCS#8, -----BEGIN PRIVATE KEY-----)"
            case .notP256: return "it is not an EC P-256 key, which ES256 needs"
            }
        }
    }

    /// The key in `pem` (PKCS#8 `BEGIN PRIVATE KEY`, or SEC 1 `BEGIN EC PRIVATE KEY`).
    package init(pem: [UInt8]) throws(Problem) {
        let read: OpaquePointer? = pem.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let read else { throw .unreadable }
        guard ES256.isP256(read) else {
            EVP_PKEY_free(read)
            throw .notP256
        }
        key = read
    }

    deinit { EVP_PKEY_free(key) }

    /// The ES256 signature of `message`: SHA-256, ECDSA, then DER's (R, S) as R‖S.
    func sign(_ message: [UInt8]) -> [UInt8]? {
        guard let der = Digest.signSHA256(message, with: key) else { return nil }
        return Self.rawSignature(der)
    }

    /// DER `ECDSA-Sig-Value` to R‖S, each left-padded to 32 bytes.
    private static func rawSignature(_ der: [UInt8]) -> [UInt8]? {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { return nil }
        defer { ECDSA_SIG_free(parsed) }
        var out = [UInt8](repeating: 0, count: 64)
        let r = ECDSA_SIG_get0_r(parsed), s = ECDSA_SIG_get0_s(parsed)
        let written = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            BN_bn2binpad(r, buffer.baseAddress, 32) == 32 && BN_bn2binpad(s, buffer.baseAddress! + 32, 32) == 32
        }
        return written ? out : nil
    }
}
