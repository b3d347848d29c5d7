import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

extension UnitTests {
    /// `Base64URL.decode`: the inverse of Foundation's encoder, padded or not; strict on the rest.
    struct Base64URLTests {
        static func urlEncoded(_ bytes: [UInt8], padded: Bool) -> String {
            var text = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            if !padded { text = text.replacingOccurrences(of: "=", with: "") }
            return text
        }

        @Test func decodesWhatFoundationEncodesForAnyBytes() {
            var random = SplitMix64(seed: 20_260_115)
            for _ in 0..<2_000 {
                let count = Int(random.next() % 70)
                let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                for padded in [true, false] {
                    let text = Self.urlEncoded(bytes, padded: padded)
                    #expect(Base64URL.decode(text.utf8) == bytes, "\(text)")
                }
            }
        }

        @Test func refusesWhatIsNotBase64URL() {
            var random = SplitMix64(seed: 7)
            for _ in 0..<500 {
                let count = 1 + Int(random.next() % 40)
                let text = Self.urlEncoded((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }, padded: false)
                var utf8 = Array(text.utf8)
                let position = Int(random.next() % UInt64(utf8.count))
                for bad in ["+", "/", " ", "\n", ".", "é"] {
                    var edited = utf8
                    edited.replaceSubrange(position..<(position + 1), with: Array(bad.utf8))
                    #expect(Base64URL.decode(edited) == nil, "\(bad) at \(position) of \(text)")
                }
                utf8.append(UInt8(ascii: "A"))
                if utf8.count % 4 == 1 { #expect(Base64URL.decode(utf8) == nil, "a lone last character is no byte") }
            }
        }

        @Test func paddingOnlyAtTheEndAndOnlyToCompleteTheGroup() {
            #expect(Base64URL.decode("".utf8) == [])
            #expect(Base64URL.decode("-_8".utf8) == [0xFB, 0xFF])
            #expect(Base64URL.decode("-_8=".utf8) == [0xFB, 0xFF])
            #expect(Base64URL.decode("AA==".utf8) == [0])
            #expect(Base64URL.decode("AA=".utf8) == nil)
            #expect(Base64URL.decode("AA===".utf8) == nil)
            #expect(Base64URL.decode("AAAA=".utf8) == nil)
            #expect(Base64URL.decode("AA=A".utf8) == nil)
            #expect(Base64URL.decode("A".utf8) == nil)
            #expect(Base64URL.decode("=".utf8) == nil)
        }
    }
}

/// Standard base64, as Pub/Sub push messages carry it (Google Play notifications).
@Suite(.tags(.unit))
struct StandardBase64Tests {
    @Test func decodesTheStandardAlphabetAndRefusesTheURLOne() {
        #expect(Base64URL.decodeStandard("+/+/".utf8) == [0xFB, 0xFF, 0xBF])
        #expect(Base64URL.decodeStandard("eyJhIjoxfQ==".utf8) == Array(#"{"a":1}"#.utf8))
        #expect(Base64URL.decodeStandard("-_-_".utf8) == nil)
        #expect(Base64URL.decodeStandard("a".utf8) == nil)
    }
}
