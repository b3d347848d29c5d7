/// Makes strings from data safe to print: a crafted id cannot drive the terminal.
package enum Terminal {
    /// `text` with every character that could drive or reorder the terminal shown as an
    /// escape: controls (Unicode Cc: C0, DEL, C1) as `\n`, `\t`, `\r` or `\u{1b}`, and the
    /// bidirectional formatting marks, U+2028 and U+2029 as `\u{…}`. A backslash is
    /// always doubled, so the text `\u{1b}` (printed `\\u{1b}`) never looks like ESC.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    /// Bytes that may not be UTF-8, for a message: printable ASCII as is, anything else as `\xNN`.
    package static func escapeBytes(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// Cc, the bidi controls of Cf, Zl, Zp, and the backslash that introduces escapes.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x5C: return true
        case 0x00..<0x20, 0x7F..<0xA0: return true  // Cc
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidi marks, embeddings, isolates
        case 0x2028, 0x2029: return true  // Zl, Zp
        default: return false
        }
    }
}
