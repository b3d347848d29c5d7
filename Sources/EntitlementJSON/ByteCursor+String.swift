extension ByteCursor {
    /// A string at the cursor (on its quote) without escapes: the range of its content
    /// and whether it is all ASCII. Other than ASCII, it must be valid UTF-8.
    @inlinable
    package mutating func string() throws(Unsupported) -> (Range<Int>, Bool) {
        index += 1
        let start = index
        let skipped = StringScan.skipOrdinary(bytes, from: index)
        index = skipped.index
        var union: UInt64 = skipped.sawNonASCII ? 0x80 : 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let range = start..<index
                index += 1
                let ascii = union & 0x8080_8080_8080_8080 == 0
                if !ascii, !Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[range])) { throw Unsupported() }
                return (range, ascii)
            }
            // Escapes are left to the tree path, and control characters are errors.
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { throw Unsupported() }
            union |= UInt64(byte)
            index += 1
        }
        throw Unsupported()
    }

    /// Well-formed UTF-8 (Unicode's table 3-7): no overlong forms, no surrogates, nothing past U+10FFFF.
    @inlinable
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        func continuation(_ at: Int) -> Bool { at < n && bytes[at] & 0xC0 == 0x80 }
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            switch lead {
            case 0xC2...0xDF:
                guard continuation(i + 1) else { return false }
                i += 2
            case 0xE0...0xEF:
                guard i + 2 < n, continuation(i + 2) else { return false }
                let second = bytes[i + 1]
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80, high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard second >= low, second <= high else { return false }
                i += 3
            case 0xF0...0xF4:
                guard i + 3 < n, continuation(i + 2), continuation(i + 3) else { return false }
                let second = bytes[i + 1]
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80, high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard second >= low, second <= high else { return false }
                i += 4
            default: return false
            }
        }
        return true
    }
}
