import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// `JSONWriter` and the `JSONValue` / `JSONObject` helpers: stable output that parses back.
    struct JSONWriterTests {
        typealias F = Fixture

        @Test func prettyOutputSortsKeysAndIndentsTwoSpaces() {
            let value = F.json(#"{"b": [1, 2], "a": {}, "c": {"y": null, "x": []}}"#)
            #expect(JSONWriter().string(value) == """
                {
                  "a": {},
                  "b": [
                    1,
                    2
                  ],
                  "c": {
                    "x": [],
                    "y": null
                  }
                }

                """)
        }

        @Test func compactOutputHasNoWhitespaceAndNoFinalNewline() {
            let value = F.json(#"{"b": [true, null], "a": 1.50}"#)
            #expect(JSONWriter(style: .compact).string(value) == #"{"a":1.50,"b":[true,null]}"#)
        }

        @Test func keysSortByUTF8BytesOrKeepTheirOrder() {
            let value = F.json(#"{"é": 1, "b": 2, "B": 3, "a": 4, "_": 5, "a1": 6}"#)
            #expect(JSONWriter(style: .compact).string(value) == #"{"B":3,"_":5,"a":4,"a1":6,"b":2,"é":1}"#)
            #expect(JSONWriter(style: .compact, sortKeys: false).string(value) == #"{"é":1,"b":2,"B":3,"a":4,"_":5,"a1":6}"#)
        }

        @Test(arguments: [
            ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
            ("\u{0}", #""\u0000""#), ("\u{8}", #""\u0008""#), ("\u{C}", #""\u000c""#), ("\u{1B}", #""\u001b""#),
            ("\u{1F}", #""\u001f""#), ("\u{7F}", #""\u007f""#), ("/", #""/""#), ("é😀", #""é😀""#), ("\u{2028}", "\"\u{2028}\""),
        ])
        func stringEscapes(text: String, expected: String) {
            #expect(JSONWriter(style: .compact).string(.string(text)) == expected)
        }

        @Test func numbersAreWrittenAsTheirText() {
            for text in ["9.90", "1e10", "-0", "123456789012345678901234567890", "1.0"] {
                #expect(JSONWriter(style: .compact).string(.number(text)) == text)
            }
        }

        @Test func bytesAreTheUTF8OfString() {
            let value = F.json(#"{"name": "José", "n": [1, {"k": "\u0001"}]}"#)
            for writer in [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)] {
                #expect(writer.bytes(value) == Array(writer.string(value).utf8))
            }
        }

        static let roundTripDocuments: [JSONValue] = [
            .string(String((0..<0x20).map { Character(Unicode.Scalar($0)!) }) + "\u{7F}\"\\/é😀\u{2028}𝄞"),
            F.json(#"{"a": [1, -2.50, 3e-5, true, false, null, "x"], "b": {"c": {"d": []}}, "": {}}"#),
            .array([.object(JSONObject([("k\n\"ey", .string("v\u{0}"))])), .number("0.1")]),
            F.json(#"{"customer_user_id": "../etc/passwd", "price": 9.99, "custom_attributes": {"age": 34}}"#),
        ]

        @Test(arguments: roundTripDocuments)
        func roundTrip(value: JSONValue) throws {
            for writer in [JSONWriter(), JSONWriter(style: .compact), JSONWriter(style: .compact, sortKeys: false)] {
                #expect(try JSONParser.parse(writer.string(value)) == value)
            }
        }

        @Test func writingIsStableAfterOneRoundTrip() throws {
            let text = JSONWriter().string(F.json(#"{"z": {"b": 1, "a": [2, {"d": 3, "c": 4}]}, "y": "\u00e9"}"#))
            #expect(JSONWriter().string(try JSONParser.parse(text)) == text)
        }

        // MARK: JSONValue and JSONObject helpers

        @Test(arguments: [
            (9.99, "9.99"), (10, "10"), (-0.5, "-0.5"), (0, "0"), (1234567.25, "1234567.25"), (-3, "-3"), (1e20, "1e+20"), (1e15, "1000000000000000.0"),
        ])
        func doubleIsWrittenInShortestForm(value: Double, text: String) throws {
            #expect(JSONValue.double(value) == .number(text))
            #expect(try JSONParser.parse(text).doubleValue == value)
        }

        @Test func intAndOptionalString() {
            #expect(JSONValue.int(-42) == .number("-42"))
            #expect(JSONValue.string(nil as String?) == .null)
            #expect(JSONValue.string("x" as String?) == .string("x"))
        }

        @Test func kindDescriptions() {
            let kinds = [JSONValue.null, .bool(true), .number("1"), .string(""), .array([]), .object(JSONObject())].map(\.kindDescription)
            #expect(kinds == ["null", "a boolean", "a number", "a string", "an array", "an object"])
        }

        @Test func objectKeepsInsertionOrderAndRemovesOnNil() {
            var object = JSONObject([("b", .int(1)), ("a", .int(2))])
            object["c"] = .int(3)
            object["b"] = .int(4)
            #expect(object.keys == ["b", "a", "c"])
            #expect(object["b"] == .int(4))
            object["a"] = nil
            #expect(object.keys == ["b", "c"])
            object["missing"] = nil
            #expect(object.keys == ["b", "c"])
        }

        @Test func objectEqualityIgnoresKeyOrder() {
            #expect(JSONObject([("a", .int(1)), ("b", .int(2))]) == JSONObject([("b", .int(2)), ("a", .int(1))]))
            #expect(JSONObject([("a", .int(1))]) != JSONObject([("a", .int(1)), ("b", .null)]))
            #expect(JSONValue.number("1.0") != .number("1"))
        }
    }
}
