import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

extension UnitTests {
    /// The fast parse of the written form (`ISODate.parseWritten`) answers exactly as the
    /// general parse does, over dates of every field value in and out of range, and over
    /// the same dates with a byte changed anywhere.
    struct ISODateWrittenFormTests {
        static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

        @Test func agreesWithTheGeneralParse() {
            var random = SplitMix64(seed: 14_0040)
            let alphabet = Array("0123456789-:TtZz +.,/aé\u{0}".utf8)
            var answered = 0
            for _ in 0..<100_000 {
                let year = ProfileGenerator.draw(&random, 10_000)
                let text = String(repeating: "0", count: 4 - min(4, String(year).count)) + String(year)
                    + "-" + Self.twoDigits(ProfileGenerator.draw(&random, 14)) + "-" + Self.twoDigits(ProfileGenerator.draw(&random, 33))
                    + "T" + Self.twoDigits(ProfileGenerator.draw(&random, 26)) + ":" + Self.twoDigits(ProfileGenerator.draw(&random, 62))
                    + ":" + Self.twoDigits(ProfileGenerator.draw(&random, 62)) + "Z"
                var bytes = Array(text.utf8)
                if ProfileGenerator.draw(&random, 3) == 0 {
                    bytes[ProfileGenerator.draw(&random, bytes.count)] = alphabet[ProfileGenerator.draw(&random, alphabet.count)]
                }
                bytes.withUnsafeBufferPointer { buffer in
                    let general = ISODate.parseAnyForm(utf8: buffer)
                    if let fast = ISODate.parseWritten(buffer) {
                        answered += 1
                        #expect(fast == general, "\(String(decoding: buffer, as: UTF8.self))")
                    } else {
                        // The fast parse gives up only on what the general one refuses, or on another form.
                        #expect(general == nil || buffer[10] != UInt8(ascii: "T") || buffer[19] != UInt8(ascii: "Z"),
                                "\(String(decoding: buffer, as: UTF8.self))")
                    }
                    #expect(ISODate.parse(utf8: buffer) == general)
                }
            }
            #expect(answered > 10_000)
        }

        /// The bounds: the first and last instants the store writes, a leap day, a day too many.
        @Test func boundaries() {
            let cases: [(String, Double?)] = [
                ("0001-01-01T00:00:00Z", ISODate.firstInstant), ("9999-12-31T23:59:59Z", ISODate.lastInstant),
                ("0000-12-31T23:59:59Z", nil), ("2024-02-29T12:00:00Z", 1_709_208_000), ("2023-02-29T12:00:00Z", nil),
                ("2026-01-15T24:00:00Z", nil), ("2026-01-15T23:59:60Z", nil), ("2026-13-01T00:00:00Z", nil),
            ]
            for (text, expected) in cases {
                let bytes = Array(text.utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(ISODate.parse(utf8: buffer)?.timeIntervalSince1970 == expected, "\(text)")
                    #expect(ISODate.parseAnyForm(utf8: buffer)?.timeIntervalSince1970 == expected, "\(text)")
                }
            }
        }

        /// Dates appended straight into an output buffer (`ISODate.append`) are the formatted text.
        @Test(arguments: [0.0, 0.25, 0.001, 0.000_001, -0.5, 1e12, -62_135_596_800, 253_402_300_799, 253_402_300_800, -62_135_596_801])
        func datesAppendAsTheyFormat(_ interval: Double) {
            let date = Date(timeIntervalSince1970: interval)
            let sink = ByteSink(capacity: 1)
            ISODate.append(date, to: sink)
            #expect(sink.array == Array(ISODate.format(date).utf8))
        }
    }
}
