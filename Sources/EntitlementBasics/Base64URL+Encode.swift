extension Base64URL {
    /// base64url without padding, as JWS and JWT segments are written.
    package static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)], alphabet[Int(group >> 6 & 63)], alphabet[Int(group & 63)]]
            index += 3
        }
        let left = bytes.count - index
        if left > 0 {
            let group = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)]]
            if left == 2 { out.append(alphabet[Int(group >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
