/// The word-at-a-time skip over the ordinary bytes of a JSON string, shared by the tree
/// parser (`JSONParser`) and the tree-free decoder (`ByteCursor`).
@usableFromInline
enum StringScan {
    /// Skips, eight bytes at a time, the bytes from `start` that are none of '"', '\\' and
    /// the control characters; returns where it stopped (at the first such byte, or fewer
    /// than eight bytes from the end, where the caller's byte loop goes on) and whether a
    /// skipped byte was outside ASCII.
    ///
    /// The bit tricks of "Bit Twiddling Hacks": a byte-wise test for zero, or for less than
    /// 0x20, has no false negative, and the lowest flagged byte is a true hit (a false one
    /// needs a borrow from a true hit below it), so the bytes before it are ordinary.
    @inlinable @inline(__always)
    static func skipOrdinary(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (index: Int, sawNonASCII: Bool) {
        var index = start
        var union: UInt64 = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return (index, false) }
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let special = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)) & highs
            if special != 0 {
                let ordinary = special.trailingZeroBitCount / 8
                union |= word & ((1 &<< UInt64(ordinary * 8)) &- 1)
                index += ordinary
                break
            }
            union |= word
            index += 8
        }
        return (index, union & highs != 0)
    }
}
