/// base64url (RFC 4648 §5) decoding, as in JWS compact serialization.
///
/// Written here rather than taken from `Data(base64Encoded:)`: `Data` drags most of
/// FoundationEssentials' file code, and with it glibc's name-service and `mktemp`
/// functions, into a statically linked executable.
package enum Base64URL {
    /// The bytes of `text`: the alphabet `A-Z a-z 0-9 - _`, with or without `=` padding.
    ///
    /// Nil for any other character, a length that leaves 1 character over (no whole
    /// byte), or padding that is not at the end or does not complete the last group.
    /// Bits left over in the last character are ignored, as most decoders do.
    package static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        decodeSextets(text)
    }

    /// The bytes of standard base64 (RFC 4648 §4: the alphabet's last two are `+ /`), as
    /// Google's Pub/Sub push messages carry them; `-` and `_` are refused here.
    package static func decodeStandard<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var mapped: [UInt8] = []
        mapped.reserveCapacity(text.count)
        for byte in text {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"): return nil
            case UInt8(ascii: "+"): mapped.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): mapped.append(UInt8(ascii: "_"))
            default: mapped.append(byte)
            }
        }
        return decodeSextets(mapped)
    }

    private static func decodeSextets<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.count)
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte) else { return nil }
            sextets.append(value)
        }
        let remainder = sextets.count % 4
        guard remainder != 1 else { return nil }
        if padding > 0, padding != (4 - remainder) % 4 { return nil }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 4 <= sextets.count {
            let group = UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12 | UInt32(sextets[index + 2]) << 6 | UInt32(sextets[index + 3])
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
            bytes.append(UInt8(truncatingIfNeeded: group >> 8))
            bytes.append(UInt8(truncatingIfNeeded: group))
            index += 4
        }
        switch remainder {
        case 2:
            bytes.append(sextets[index] << 2 | sextets[index + 1] >> 4)
        case 3:
            bytes.append(sextets[index] << 2 | sextets[index + 1] >> 4)
            bytes.append(sextets[index + 1] << 4 | sextets[index + 2] >> 2)
        default:
            break
        }
        return bytes
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
