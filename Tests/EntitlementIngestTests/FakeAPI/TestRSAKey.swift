import COpenSSL
@testable import EntitlementTrust

/// An RSA key pair the test makes (2048 bits, once per process): the private key in PKCS #8
/// PEM, as a Google service-account file holds it, and the public key the fake Google token
/// endpoint verifies assertions with.
struct TestRSAKey: Sendable {
    let privatePEM: String
    let publicPEM: String

    static let shared = TestRSAKey()
    /// A second key, for an assertion Google would refuse (signed by the wrong key).
    static let other = TestRSAKey()

    init() {
        let key = entitlement_rsa_generate(2048)!
        defer { EVP_PKEY_free(key) }
        privatePEM = Self.pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        publicPEM = Self.pem { PEM_write_bio_PUBKEY($0, key) }
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) -> String {
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        precondition(write(bio) == 1)
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let read = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return String(decoding: bytes.prefix(Int(read)), as: UTF8.self)
    }
}
