/// The file name rule that maps a customer user id (or profile id) to one file.
///
/// One-to-one and safe for any id: see docs/store-format.md, "Profile file names".
public enum ProfileFileName {
    /// Escaped names longer than this use the SHA-256 form.
    public static let maximumEscapedLength = 200

    /// The base name (without `.json`) for `id`; `id` must not be empty.
    public static func name(for id: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(id.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for (offset, byte) in id.utf8.enumerated() {
            if isKept(byte), !(offset == 0 && byte == UInt8(ascii: ".")) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
            if out.count > maximumEscapedLength { return "~" + SHA256.hexDigest(id.utf8) }
        }
        return String(decoding: out, as: UTF8.self)
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
