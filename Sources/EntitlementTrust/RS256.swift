import COpenSSL

/// RS256 verification (RSASSA-PKCS1-v1_5 with SHA-256) under a public key in PEM
/// (`BEGIN PUBLIC KEY`): what a Google token endpoint does with a service account's assertion,
/// which the tests' fake endpoint does too.
enum RS256 {
    static func verify(signature: [UInt8], message: [UInt8], publicKeyPEM: [UInt8]) -> Bool {
        let key: OpaquePointer? = publicKeyPEM.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        defer { ERR_clear_error() }
        guard let key, EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { EVP_DigestVerify(context, sig.baseAddress, sig.count, $0.baseAddress, $0.count) }
        }
        return result == 1
    }
}
