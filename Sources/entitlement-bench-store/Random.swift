/// SplitMix64: a small, fast, seedable generator. Every draw goes through our own
/// methods (not the standard library's `random(in:using:)`, whose algorithm may
/// change between Swift versions), so a seed gives the same store everywhere.
struct SplitMix64 {
    private var state: UInt64

    /// An independent stream per (seed, stream): profile `i` depends only on the
    /// seed and `i`, so the 1,000-profile store is a prefix of the 1,000,000 one.
    init(seed: UInt64, stream: UInt64) {
        state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        _ = next()
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (Lemire's multiply-high; the bias is negligible here).
    mutating func int(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Uniform in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(range.upperBound - range.lowerBound + 1)
    }

    /// In `1...maximum`, small values much more likely (most customers have few renewals).
    mutating func skewed(_ maximum: Int) -> Int {
        let u = Double(next() >> 11) * 0x1p-53
        return min(maximum, 1 + Int(u * u * Double(maximum)))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < p }

    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    /// An index into `weights`, with probability proportional to its weight.
    mutating func weighted(_ weights: [Int]) -> Int {
        var ticket = int(weights.reduce(0, +))
        for (index, weight) in weights.enumerated() {
            if ticket < weight { return index }
            ticket -= weight
        }
        return weights.count - 1
    }

    mutating func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<count).map { _ in digits[int(16)] }, as: UTF8.self)
    }

    mutating func digits(_ count: Int) -> String {
        String(decoding: (0..<count).map { _ in UInt8(ascii: "0") + UInt8(int(10)) }, as: UTF8.self)
    }

    mutating func alphanumeric(_ count: Int) -> String {
        let characters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        return String(decoding: (0..<count).map { _ in characters[int(characters.count)] }, as: UTF8.self)
    }

    /// A version-4 UUID, lower case.
    mutating func uuid() -> String {
        let variant = ["8", "9", "a", "b"][int(4)]
        return "\(hex(8))-\(hex(4))-4\(hex(3))-\(variant)\(hex(3))-\(hex(12))"
    }
}
