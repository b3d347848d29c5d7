import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// The check `find` and `summary` run on the files they rule out: a "yes" is always the
    /// parser's yes, and what the writer writes is always a yes.
    struct JSONValidatorTests {
        static func wellFormed(_ bytes: [UInt8]) -> Bool {
            var validator = JSONValidator()
            return bytes.withUnsafeBytes { validator.isWellFormedObject($0) }
        }

        static func wellFormed(_ text: String) -> Bool { wellFormed(Array(text.utf8)) }

        /// The parser's answer: one object, nothing else.
        static func parsesAsObject(_ bytes: [UInt8]) -> Bool {
            guard let value = try? JSONParser.parse(bytes), case .object = value else { return false }
            return true
        }

        @Test(arguments: [
            #" {"customer_user_id": "a", "transactions": [{"x": 1.5e3, "y": [true, null]}]} "#,
            "{}", #"{"a": []}"#, #"{"a": {}}"#, #"{"a": [[], {}, [{}]]}"#, "\n\t{\r\n}\n",
            #"{"a": "line\nbreak \"quoted\" \\ \t"}"#, #"{"a": -0, "b": 0.5, "c": 1E+5, "d": -12e-3}"#,
            #"{"a": {"k": 1}, "b": {"k": 2}}"#, #"{"é": "😀", "e\u0301": 1}"#.replacingOccurrences(of: "\\u0301", with: "\u{301}"),
        ])
        func accepts(_ text: String) {
            #expect(Self.wellFormed(text))
            #expect(Self.parsesAsObject(Array(text.utf8)))
        }

        @Test(arguments: [
            ("", "empty"), ("   ", "only whitespace"), (#"{"customer_user_id": "broken","#, "truncated"),
            (#"{"a": 1} {"b": 2}"#, "two documents"), (#"[{"a": 1}]"#, "not an object"), (#""text""#, "a string"),
            (#"{"a": 1, "a": 2}"#, "a duplicate key"), (#"{"x": {"a": 1, "b": {}, "a": 2}}"#, "a nested duplicate key"),
            (#"{"a": 1,}"#, "a trailing comma"), (#"{"a" 1}"#, "no colon"), (#"{"a": 1 "b": 2}"#, "no comma"),
            (#"{"a": [1 2]}"#, "no comma in an array"), (#"{"a": [1,]}"#, "a trailing comma in an array"),
            (#"{"a": 01}"#, "a leading zero"), (#"{"a": 1.}"#, "no fraction digits"), (#"{"a": 1e}"#, "no exponent digits"),
            (#"{"a": -}"#, "a lone minus"), (#"{"a": +1}"#, "a plus sign"), (#"{"a": tru}"#, "a cut literal"),
            (#"{"a": nul"#, "a cut literal at the end"), (#"{"a": "x}"#, "an open string"), ("{\"a\": \"\u{1}\"}", "a control character"),
            (#"{"a": "\x"}"#, "an invalid escape"), (#"{"a": "\u0041"}"#, "a \\u escape, left to the parser"),
            (#"{"a": "\/"}"#, "a \\/ escape, left to the parser"), ("\u{FEFF}{}", "a byte-order mark, left to the parser"),
            (#"{"a": 1]"#, "a mismatched bracket"), (#"{"a": [1}"#, "a mismatched brace"), (#"{"a": 1}}"#, "one brace too many"),
        ])
        func refuses(_ text: String, _ why: String) {
            #expect(!Self.wellFormed(text), "\(why)")
        }

        @Test func refusesInvalidUTF8() {
            for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
                #expect(!Self.wellFormed(Array(#"{"a": ""#.utf8) + bad + Array(#""}"#.utf8)))
                #expect(!Self.wellFormed(Array(#"{""#.utf8) + bad + Array(#"": 1}"#.utf8)))
            }
        }

        /// Past its depth limit the check answers "decode it"; a duplicate key is found in an object of any size.
        @Test func limitsAnswerDecodeIt() {
            func nested(_ depth: Int) -> String { String(repeating: #"{"a": "#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1) }
            #expect(Self.wellFormed(nested(JSONValidator.maximumDepth)))
            #expect(!Self.wellFormed(nested(JSONValidator.maximumDepth + 1)))
            #expect(Self.parsesAsObject(Array(nested(JSONValidator.maximumDepth + 1).utf8)))
            func keys(_ count: Int) -> String { "{" + (0..<count).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ") + "}" }
            for count in [JSONValidator.comparedKeys, JSONValidator.comparedKeys + 1, 1_000] {
                #expect(Self.wellFormed(keys(count)))
                for repeated in [0, count / 2, count - 1] {
                    let text = keys(count).dropLast() + #", "k\#(repeated)": 0}"#
                    #expect(!Self.wellFormed(String(text)), "\(count) keys, k\(repeated) twice")
                }
            }
        }

        /// Keys that share length and first and last eight bytes (one fingerprint) are still told apart.
        @Test func sameFingerprintDifferentKeys() {
            #expect(Self.wellFormed(#"{"abcdefgh_1_ijklmnop": 1, "abcdefgh_2_ijklmnop": 2}"#))
            #expect(!Self.wellFormed(#"{"abcdefgh_1_ijklmnop": 1, "abcdefgh_1_ijklmnop": 2}"#))
            #expect(Self.wellFormed(#"{"ab": 1, "ba": 2, "a": 3, "b": 4}"#))
            // The same in an object large enough to be checked by sorting.
            let many = (0..<40).map { #""key_\#($0)": 0, "# }.joined()
            #expect(Self.wellFormed("{" + many + #""abcdefgh_1_ijklmnop": 1, "abcdefgh_2_ijklmnop": 2}"#))
            #expect(!Self.wellFormed("{" + many + #""abcdefgh_1_ijklmnop": 1, "abcdefgh_1_ijklmnop": 2}"#))
        }

        // MARK: Properties over generated documents

        static let words = ["a", "id", "expires_at", "transaction_id", "é", "😀", "k", " ", "\"", "\\", "\n", "x/y"]

        static func text(_ random: inout SplitMix64) -> String {
            (0..<Int(random.next() % 4)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined()
        }

        static func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
            switch random.next() % (depth > 3 ? 4 : 6) {
            case 0: return .null
            case 1: return .bool(random.next() % 2 == 0)
            case 2: return .number(["0", "-1", "2.5", "1e9", "-0.25E-3", "1234567"][Int(random.next() % 6)])
            case 3: return .string(text(&random))
            case 4: return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth + 1) })
            default: return .object(object(&random, depth: depth + 1))
            }
        }

        static func object(_ random: inout SplitMix64, depth: Int) -> JSONObject {
            var fields: [(String, JSONValue)] = []
            for _ in 0..<Int(random.next() % 5) {
                let key = text(&random)
                if !fields.contains(where: { $0.0 == key }) { fields.append((key, value(&random, depth: depth))) }
            }
            return JSONObject(fields)
        }

        /// Whatever the writer writes (without `\u` escapes, which it writes only for control
        /// characters), the check accepts, pretty or compact.
        @Test func acceptsWhatTheWriterWrites() {
            var random = SplitMix64(seed: 12_2026)
            for _ in 0..<2_000 {
                let document = JSONValue.object(Self.object(&random, depth: 0))
                for writer in [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)] {
                    let bytes = writer.bytes(document)
                    #expect(Self.wellFormed(bytes), "\(String(decoding: bytes, as: UTF8.self))")
                }
            }
        }

        /// A "yes" is always the parser's: over written documents damaged at random (a byte
        /// cut, changed or added; the text cut short; a key repeated), whenever the check
        /// accepts, the parser reads one object.
        @Test func acceptsNothingTheParserRefuses() {
            var random = SplitMix64(seed: 2026_11_23)
            let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-tfnulra/é"#.utf8) + [0x00, 0x0A, 0x1F, 0x80, 0xC3, 0xFF]
            var accepted = 0, refused = 0
            for _ in 0..<20_000 {
                var bytes = JSONWriter(style: random.next() % 2 == 0 ? .pretty : .compact).bytes(.object(Self.object(&random, depth: 0)))
                for _ in 0...Int(random.next() % 3) where !bytes.isEmpty {
                    let at = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 5 {
                    case 0: bytes.remove(at: at)
                    case 1: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    case 2: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                    case 3: bytes.removeSubrange(at...)
                    default:
                        // Repeat the object's first key at its end.
                        if let close = bytes.lastIndex(of: UInt8(ascii: "}")), let quote = bytes.firstIndex(of: UInt8(ascii: "\"")),
                           let colon = bytes[quote...].firstIndex(of: UInt8(ascii: ":")), close > colon {
                            bytes.insert(contentsOf: Array(", ".utf8) + bytes[quote...colon] + Array(" 1".utf8), at: close)
                        }
                    }
                }
                let yes = Self.wellFormed(bytes)
                if yes {
                    accepted += 1
                    #expect(Self.parsesAsObject(bytes), "accepted what the parser refuses: \(String(decoding: bytes, as: UTF8.self))")
                } else {
                    refused += 1
                }
            }
            // Both answers are exercised.
            #expect(accepted > 1_000 && refused > 1_000, "accepted \(accepted), refused \(refused)")
        }
    }
}
