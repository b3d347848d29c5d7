/// base64 decoding for JWS segments (base64url) and `x5c` certificates (standard base64).
///
/// The module's own copy: EntitlementTrust sits below the modules that have one.
enum TrustBase64 {
    /// The alphabet a decoding accepts besides `A-Z a-z 0-9`.
    enum Alphabet {
        /// `-` and `_` (RFC 4648 section 5), for JWS segments.
        case url
        /// `+` and `/` (RFC 4648 section 4), for `x5c` entries (RFC 7515 section 4.1.6).
        case standard
    }

    /// The bytes of `text`, with or without `=` padding; nil for any other character, a
    /// length that leaves one character over, or padding that is not at the end or does
    /// not complete the last group.
    static func decode(_ text: some Collection<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        for character in text {
            if character == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(character, alphabet) else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                bytes.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        guard count != 1, padding == 0 || padding == (4 - count) % 4, !(padding > 0 && count == 0) else { return nil }
        if count == 2 { bytes.append(UInt8(truncatingIfNeeded: group >> 4)) }
        if count == 3 {
            bytes.append(UInt8(truncatingIfNeeded: group >> 10))
            bytes.append(UInt8(truncatingIfNeeded: group >> 2))
        }
        return bytes
    }

    private static func sextet(_ character: UInt8, _ alphabet: Alphabet) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-") where alphabet == .url, UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "_") where alphabet == .url, UInt8(ascii: "/") where alphabet == .standard: return 63
        default: return nil
        }
    }
}

extension TrustBase64 {
    /// base64url without padding (RFC 7515's `BASE64URL`), for the segments of a JWS this module writes.
    static func encodeURL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0...count { out.append(alphabet[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
