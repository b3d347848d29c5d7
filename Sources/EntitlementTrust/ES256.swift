import COpenSSL

/// ES256 (ECDSA over P-256 with SHA-256) as JWS writes it: the raw R‖S, 32 bytes each.
enum ES256 {
    /// The order n of P-256's base point, big-endian: R and S must lie in [1, n-1].
    static let order: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
    ]

    /// True when `key` is an EC key on P-256.
    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return false }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    /// Checks `signature` (R‖S) over `message` under the P-256 `key`.
    ///
    /// The range of R and S is checked here before libcrypto sees them, so that a zero or
    /// out-of-range value (the "psychic signature" class) is refused by name whatever the
    /// library version does.
    static func verify(signature: [UInt8], message: [UInt8], key: OpaquePointer) throws(SignedDataError) {
        let der = try checkedDER(signature)
        guard let context = EVP_MD_CTX_new() else { throw .signatureMismatch }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw .signatureMismatch }
        let result = der.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count) }
        }
        ERR_clear_error()
        guard result == 1 else { throw .signatureMismatch }
    }

    /// Checks `signature` (R‖S) over `message` under a leaf's prepared key (`LeafKey`):
    /// the same checks, without a digest context of its own.
    static func verify(signature: [UInt8], message: ArraySlice<UInt8>, key: LeafKey) throws(SignedDataError) {
        let der = try checkedDER(signature)
        guard key.verify(der: der, digest: Digest.sha256(message)) else { throw .signatureMismatch }
    }

    /// The DER form of R‖S once its length and the range of R and S are checked.
    private static func checkedDER(_ signature: [UInt8]) throws(SignedDataError) -> [UInt8] {
        guard signature.count == 64 else { throw .malformedSignature("\(signature.count) bytes, not the 64 of R‖S") }
        let r = Array(signature[0..<32])
        let s = Array(signature[32..<64])
        guard inRange(r), inRange(s) else { throw .malformedSignature("R or S is 0 or not below the curve order") }
        guard let der = derSignature(r: r, s: s) else { throw .malformedSignature("libcrypto could not encode it") }
        return der
    }

    /// 1 ≤ value < n, compared big-endian.
    static func inRange(_ value: [UInt8]) -> Bool {
        guard value.contains(where: { $0 != 0 }) else { return false }
        for (byte, limit) in zip(value, order) where byte != limit { return byte < limit }
        return false
    }

    /// The DER `ECDSA-Sig-Value` libcrypto verifies.
    private static func derSignature(r: [UInt8], s: [UInt8]) -> [UInt8]? {
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let bigR = r.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let bigS = s.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let bigR, let bigS, ECDSA_SIG_set0(sig, bigR, bigS) == 1 else {
            BN_free(bigR)
            BN_free(bigS)
            return nil
        }
        let length = i2d_ECDSA_SIG(sig, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(sig, &cursor)
        }
        return written == length ? der : nil
    }
}
