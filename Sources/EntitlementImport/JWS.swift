import EntitlementBasics
import EntitlementJSON

/// Compact JWS strings (`header.payload.signature`, base64url) as Apple signs its data.
///
/// The shape test and the decoding for `--no-verify`; verification is EntitlementTrust's
/// (`JWSReader`), which reads the same shapes.
package enum JWS {
    /// True when `text`, trimmed, has the shape `^[A-Za-z0-9_-]+=*\.[A-Za-z0-9_-]+=*\.[A-Za-z0-9_-]*=*$`:
    /// `=` padding, at most two per segment, is allowed (docs/import.md section 2.1).
    package static func looksLikeJWS(_ text: String) -> Bool {
        // Split as bytes: splitting the String splits Characters (grapheme breaking), which
        // was a tenth of `ingest`'s time for App Store notifications (docs/performance.md).
        // One pass over the bytes: a notification's JWS is kilobytes, checked on every event.
        var segment = 0, body = 0, padding = 0
        func segmentFits() -> Bool { padding <= 2 && (segment == 2 || body > 0) && (padding == 0 || body > 0) }
        for byte in trimmed(text) {
            switch byte {
            case UInt8(ascii: "."):
                guard segment < 2, segmentFits() else { return false }
                segment += 1
                body = 0
                padding = 0
            case UInt8(ascii: "="):
                padding += 1
            default:
                guard padding == 0, isBase64URL(byte) else { return false }
                body += 1
            }
        }
        return segment == 2 && segmentFits()
    }

    /// The payload object of a JWS-shaped string, or nil when the header or the payload
    /// is not base64url-encoded JSON of an object.
    package static func payload(of text: String) -> JSONObject? {
        let parts = dotParts(text)
        guard parts.count == 3,
              let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              case .object? = try? JSONParser.parse(headerBytes, allowTrailingCommas: true),
              case .object(let payload)? = try? JSONParser.parse(payloadBytes, allowTrailingCommas: true)
        else { return nil }
        return payload
    }

    /// base64url with optional padding.
    static func base64URLDecode(_ part: Substring) -> [UInt8]? {
        Base64URL.decode(part.utf8)
    }

    /// Apple's placeholders, cut for warnings: `"signed_transaction_info_value"`.
    static func shortQuote(_ text: String) -> String {
        let cut = text.count > 30 ? String(text.prefix(30)) + "…" : text
        return "\"" + Terminal.escape(cut) + "\""
    }

    /// The text without surrounding white space, split at every `.`, as bytes.
    private static func dotParts(_ text: String) -> [ArraySlice<UInt8>] {
        trimmed(text).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    }

    /// The UTF-8 of `text` without surrounding white space (`Character.isWhitespace`). Copied as
    /// bytes whole when nothing is to trim (a JWS as sent): copying a `Substring`'s UTF-8 goes
    /// byte by byte, a fifth of `ingest`'s time for App Store events.
    private static func trimmed(_ text: String) -> ArraySlice<UInt8> {
        let bytes = Array(text.utf8)
        if let first = bytes.first, let last = bytes.last, isPlainASCII(first), isPlainASCII(last) { return bytes[...] }
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return Array(slice.utf8)[...]
    }

    /// ASCII that is not white space (tab, line feed, vertical tab, form feed, return, space).
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
