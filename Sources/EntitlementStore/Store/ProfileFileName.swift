import EntitlementBasics

/// The file name rule that maps a customer user id (or profile id) to one file.
///
/// One-to-one and safe for any id: see docs/store-format.md, "Profile file names".
package enum ProfileFileName {
    /// Escaped names longer than this use the SHA-256 form.
    static let maximumEscapedLength = 200

    /// The base name (without `.json`) for `id`; `id` must not be empty.
    package static func name(for id: String) -> String {
        var id = id
        let escaped = id.withUTF8 { utf8 -> String? in
            // The length first, so the name is written in one go (`check` makes one per user).
            var length = 0
            for offset in utf8.indices { length += isKeptAt(offset, utf8[offset]) ? 1 : 3 }
            guard length <= maximumEscapedLength else { return nil }
            let hex: StaticString = "0123456789ABCDEF"
            return String(unsafeUninitializedCapacity: length) { out in
                var at = 0
                for offset in utf8.indices {
                    let byte = utf8[offset]
                    if isKeptAt(offset, byte) {
                        out[at] = byte
                        at += 1
                    } else {
                        out[at] = UInt8(ascii: "%")
                        out[at + 1] = hex.utf8Start[Int(byte >> 4)]
                        out[at + 2] = hex.utf8Start[Int(byte & 0x0F)]
                        at += 3
                    }
                }
                return at
            }
        }
        return escaped ?? "~" + SHA256.hexDigest(id.utf8)
    }

    /// Whether the byte at `offset` of an id stays as it is (a leading dot never does).
    @inline(__always)
    private static func isKeptAt(_ offset: Int, _ byte: UInt8) -> Bool {
        isKept(byte) && !(offset == 0 && byte == UInt8(ascii: "."))
    }

    /// `id` escaped by the same rule, never in the SHA-256 form (nil when it would be longer
    /// than names get): for comparing prefixes of names. Empty for an empty id.
    package static func escapedWithoutHashing(_ id: String) -> String? {
        var out = ""
        for (offset, byte) in id.utf8.enumerated() {
            if isKept(byte), !(offset == 0 && byte == UInt8(ascii: ".")) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
            if out.utf8.count > maximumEscapedLength { return nil }
        }
        return out
    }

    /// The id a base name (without `.json`) stands for: the inverse of `name(for:)`. Nil for
    /// the SHA-256 form, for a name the rule would not produce, and for bytes that are not UTF-8.
    package static func userID(fromName name: UnsafeBufferPointer<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.count)
        var index = 0
        while index < name.count {
            let byte = name[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < name.count, let high = hexValue(name[index + 1]), let low = hexValue(name[index + 2]) else { return nil }
                let decoded = high << 4 | low
                // Only the one spelling name(for:) writes: a kept byte is never escaped.
                guard !isKept(decoded) || (bytes.isEmpty && decoded == UInt8(ascii: ".")) else { return nil }
                bytes.append(decoded)
                index += 3
            } else {
                guard isKept(byte), !(index == 0 && byte == UInt8(ascii: ".")) else { return nil }
                bytes.append(byte)
                index += 1
            }
        }
        guard !bytes.isEmpty else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "@"), UInt8(ascii: "+"):
            return true
        default:
            return false
        }
    }
}
