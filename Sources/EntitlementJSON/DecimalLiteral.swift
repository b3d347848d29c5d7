/// Prices as the writer spells them (`8.99`, `0`, `-12.5`), read without `strtod`.
@usableFromInline
enum DecimalLiteral {
    /// Powers of ten that are exact `Double`s (10^0 ... 10^22).
    private static let exactPowers: [Double] = (0...22).map { exponent in
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    /// The value of a JSON number of at most 15 digits and no exponent, or nil for any other
    /// spelling (the caller then asks `Double(String)`).
    ///
    /// Clinger's fast path: the digits as an integer below 10^15 and the power of ten are
    /// both exact `Double`s, so one correctly rounded division gives the correctly rounded
    /// value, bit for bit what `strtod` gives.
    @inline(__always)
    @usableFromInline
    static func exactValue(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else if byte >= 0x30, byte <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                digits += 1
                if inFraction { fractionDigits += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 15 else { return nil }
        let value = Double(mantissa) / exactPowers[fractionDigits]
        return negative ? -value : value
    }
}
