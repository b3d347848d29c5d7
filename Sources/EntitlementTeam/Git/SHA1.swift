import COpenSSL

/// SHA-1, the object name of git: lets a commit name its trees before git stores them, and
/// checks and seals git's index. libcrypto's, through `EVP_Digest`: the index's small file
/// carries the cache tree, megabytes at 1M profiles, hashed twice on every commit.
enum SHA1 {
    /// The 20-byte digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        // EVP_Digest fails only without memory or a SHA-1 implementation, neither of which
        // libcrypto's default provider lacks.
        precondition(done == 1 && length == 20, "libcrypto's SHA-1 failed")
        return out
    }

    /// The git object id of an object of `type` ("blob", "tree") with `content`, as 40 hex digits.
    static func objectID(type: String, content: [UInt8]) -> String {
        hex(digest(Array("\(type) \(content.count)\0".utf8) + content))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0x0F)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
