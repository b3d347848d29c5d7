import Glibc
import Testing
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// `ShortBytes.equal` says what `memcmp` says, for every length up to 80 and a difference
    /// at every position (the word loop, the overlapping last word, the 4-byte and byte paths).
    struct ShortBytesTests {
        @Test func agreesWithMemcmp() {
            var random = SplitMix64(seed: 14_0030)
            for count in 0...80 {
                let a = (0..<(count + 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                for offset in 0..<3 {  // unaligned starts
                    var b = a
                    let same = a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in ShortBytes.equal(pa.baseAddress! + offset, pb.baseAddress! + offset, count: count) } }
                    #expect(same, "count \(count)")
                    for position in 0..<count {
                        b = a
                        b[offset + position] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                        let equal = a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in ShortBytes.equal(pa.baseAddress! + offset, pb.baseAddress! + offset, count: count) } }
                        let expected = a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in memcmp(pa.baseAddress! + offset, pb.baseAddress! + offset, count) == 0 } }
                        #expect(equal == expected, "count \(count), position \(position)")
                        #expect(!equal)
                    }
                }
            }
        }
    }
}
