import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// The byte decoder's shortcuts against the slow ways they replace: the key predicted
    /// from the previous object's order, and prices read without `strtod`.
    struct ProfileDecoderFastPathTests {
        /// Unknown keys that look like known ones: a known key with a suffix, a prefix of
        /// one, and one spelled with an escape (which the tree path reads).
        static let lookalikes = ["product_id_x", "store_", "expires", "type2", "x_note", "\\u0070roduct", "purchased_at_ms"]

        /// `profile` written with each transaction's keys reordered, some dropped or
        /// repeated and unknown ones inserted; many keep the previous object's order. The
        /// keys are written as given (an escape in one stays an escape).
        static func reshuffled(_ profile: Profile, pretty: Bool, _ random: inout SplitMix64) -> (bytes: [UInt8], repeated: Bool) {
            guard case .object(var object) = profile.json, case .array(let items)? = object["transactions"] else { return ([], false) }
            let writer = JSONWriter(style: .compact, sortKeys: false)
            var repeated = false
            var previous: [String] = []
            var objects: [String] = []
            for item in items {
                guard case .object(let transaction) = item else { continue }
                var pairs = transaction.entries.map { ($0.key, $0.value) }
                switch ProfileGenerator.draw(&random, 6) {
                case 0: pairs.shuffle(using: &random)
                case 1:
                    // The previous object's order, for the keys both have.
                    pairs.sort { (previous.firstIndex(of: $0.0) ?? .max) < (previous.firstIndex(of: $1.0) ?? .max) }
                case 2:
                    let name = lookalikes[ProfileGenerator.draw(&random, lookalikes.count)]
                    pairs.insert((name, .string("v")), at: ProfileGenerator.draw(&random, pairs.count + 1))
                case 3 where pairs.count > 3:
                    pairs.remove(at: ProfileGenerator.draw(&random, pairs.count))
                case 4 where ProfileGenerator.draw(&random, 8) == 0:
                    // A key twice: the tree path refuses it, and so must the decoder.
                    pairs.insert(pairs[ProfileGenerator.draw(&random, pairs.count)], at: ProfileGenerator.draw(&random, pairs.count + 1))
                    repeated = true
                default: break
                }
                previous = pairs.map(\.0)
                let members = pairs.map { key, value in "\"\(key)\"" + (pretty ? " : " : ":") + String(decoding: writer.bytes(value), as: UTF8.self) }
                objects.append("{" + members.joined(separator: pretty ? ",\n      " : ",") + "}")
            }
            object["transactions"] = .string("@transactions@")
            let text = String(decoding: JSONWriter(style: pretty ? .pretty : .compact, sortKeys: false).bytes(.object(object)), as: UTF8.self)
                .replacingOccurrences(of: "\"@transactions@\"", with: "[" + objects.joined(separator: pretty ? ",\n    " : ",") + "]")
            return (Array(text.utf8), repeated)
        }

        @Test func predictedKeysDecodeAsTheTreeDoes() {
            var random = SplitMix64(seed: 14_0003)
            for round in 0..<150 {
                let profile = ProfileDecoderManyTests.profile(&random, repeatWithinStore: false)
                let (bytes, repeated) = Self.reshuffled(profile, pretty: round % 2 == 0, &random)
                #expect(ProfileDecoderTests.disagreement(bytes) == nil, "round \(round)")
                if repeated { #expect(ProfileDecoder.decode(bytes) == nil, "round \(round): a repeated key was accepted") }
            }
        }

        @Test func predictedKeysOnGeneratedProfiles() {
            var random = SplitMix64(seed: 14_0004)
            for round in 0..<150 {
                let (bytes, _) = Self.reshuffled(ProfileGenerator.richProfile(&random), pretty: round % 2 == 1, &random)
                #expect(ProfileDecoderTests.disagreement(bytes) == nil, "round \(round)")
            }
        }

        /// A decimal spelling as writers make them: an optional sign, leading zeros, up to
        /// 20 digits either side of the point, sometimes an exponent.
        static func decimal(_ random: inout SplitMix64) -> String {
            func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(ProfileGenerator.draw(&random, 10))) }) }
            var text = ProfileGenerator.draw(&random, 4) == 0 ? "-" : ""
            let whole = ProfileGenerator.draw(&random, 3) == 0 ? "0" : String(1 + ProfileGenerator.draw(&random, 9)) + digits(ProfileGenerator.draw(&random, 12))
            text += whole
            if ProfileGenerator.draw(&random, 4) != 0 { text += "." + digits(1 + ProfileGenerator.draw(&random, ProfileGenerator.draw(&random, 2) == 0 ? 4 : 20)) }
            if ProfileGenerator.draw(&random, 10) == 0 { text += "e" + String(ProfileGenerator.draw(&random, 30) - 15) }
            return text
        }

        @Test func pricesReadExactlyAsStrtodReadsThem() {
            var random = SplitMix64(seed: 14_0005)
            var fast = 0
            for _ in 0..<200_000 {
                let text = Self.decimal(&random)
                let expected = Double(text)!
                let got = Array(text.utf8).withUnsafeBufferPointer { DecimalLiteral.exactValue($0) }
                if let got {
                    fast += 1
                    #expect(got.bitPattern == expected.bitPattern, "\(text)")
                }
            }
            #expect(fast > 100_000, "the common spellings take the fast path")
        }

        @Test(arguments: ["0", "-0", "8.99", "0.99", "-12.5", "999999999999999", "0.00000000000001", "123456789.012345"])
        func commonSpellingsTakeTheFastPath(_ text: String) {
            let got = Array(text.utf8).withUnsafeBufferPointer { DecimalLiteral.exactValue($0) }
            #expect(got?.bitPattern == Double(text)!.bitPattern)
        }

        @Test(arguments: ["1e5", "1E-2", "9007199254740993", "1234567890123456", "0.1234567890123456", "", "-", "1.2.3"])
        func otherSpellingsAreLeftToStrtod(_ text: String) {
            #expect(Array(text.utf8).withUnsafeBufferPointer { DecimalLiteral.exactValue($0) } == nil)
        }
    }
}
