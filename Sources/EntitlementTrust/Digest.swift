import COpenSSL

/// SHA-256 and HMAC-SHA256 through libcrypto.
enum Digest {
    /// The SHA-256 of `bytes` (32 bytes).
    static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ sha256(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { sha256($0) }
    }

    /// SHA-256 fetched from libcrypto's provider once: `EVP_sha256()` makes every digest fetch it again.
    nonisolated(unsafe) private static let sha256Algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA2-256", nil)

    private static func sha256(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { EVP_Digest(raw.baseAddress, raw.count, $0.baseAddress, &length, sha256Algorithm ?? EVP_sha256(), nil) }
        precondition(ok == 1 && length == 32, "libcrypto could not compute SHA-256")
        return out
    }

    /// HMAC-SHA256 of `message` keyed with `key` (32 bytes).
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                out.withUnsafeMutableBufferPointer { o in
                    HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count, o.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "libcrypto could not compute HMAC-SHA256")
        return out
    }

    /// Lowercase hexadecimal, as Stripe writes its signatures and as fingerprints are shown.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `key`'s signature over the SHA-256 of `message`, as libcrypto's `EVP_DigestSign` writes it
    /// (RSA: PKCS #1 v1.5; EC: DER's (R, S)); nil when libcrypto refuses. Its error queue is left empty.
    static func signSHA256(_ message: [UInt8], with key: OpaquePointer) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        let sized = message.withUnsafeBufferPointer { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1, length > 0 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { return nil }
        return Array(signature.prefix(length))
    }
}
