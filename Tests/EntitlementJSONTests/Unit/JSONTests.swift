import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// `JSONParser`: every value kind, escapes, strictness, and where errors are.
    struct JSONTests {
        func parse(_ text: String, trailingCommas: Bool = false) throws(JSONSyntaxError) -> JSONValue {
            try JSONParser.parse(text, allowTrailingCommas: trailingCommas)
        }

        func syntaxError(_ text: String, trailingCommas: Bool = false) -> JSONSyntaxError? {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text, allowTrailingCommas: trailingCommas) }
        }

        // MARK: Values

        @Test(arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)),
            ("0", .number("0")), ("-0", .number("-0")), ("9.99", .number("9.99")), ("1.0", .number("1.0")),
            ("1e10", .number("1e10")), ("-2.5E+3", .number("-2.5E+3")), ("1e-7", .number("1e-7")),
            ("123456789012345678901234567890", .number("123456789012345678901234567890")),
            ("\"\"", .string("")), ("\"text\"", .string("text")), ("[]", .array([])), ("{}", .object(JSONObject())),
            (" \t\r\n [ 1 , \"a\" , null ] \n", .array([.number("1"), .string("a"), .null])),
        ])
        func valueKinds(text: String, expected: JSONValue) throws {
            #expect(try parse(text) == expected)
        }

        @Test func nestedObjectKeepsKeyOrderAndNumberText() throws {
            let value = try parse(#"{"z": 1, "a": {"price": 9.90, "list": [true, false, null]}, "m": "x"}"#)
            let object = try #require(value.objectValue)
            #expect(object.keys == ["z", "a", "m"])
            let inner = try #require(object["a"]?.objectValue)
            #expect(inner["price"] == .number("9.90"))
            #expect(inner["list"] == .array([.bool(true), .bool(false), .null]))
        }

        @Test(arguments: ["01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "1.2.3", "--1"])
        func invalidNumbers(text: String) {
            #expect(syntaxError(text) != nil)
        }

        @Test(arguments: ["tru", "nul", "falsy", "True", "NULL", "undefined"])
        func invalidLiterals(text: String) {
            #expect(syntaxError(text) != nil)
        }

        // MARK: Strings

        @Test(arguments: [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
            (#""\u00e9\u00C9""#, "éÉ"),
            (#""\u0000x""#, "\u{0}x"),
            (#""\uD83D\uDE00""#, "😀"),
            (#""\ud83d\ude00 and \uD834\uDD1E""#, "😀 and 𝄞"),
            (#""José Ñ 😀""#, "José Ñ 😀"),
            (#""a\u0041b""#, "aAb"),
        ])
        func stringEscapes(text: String, expected: String) throws {
            #expect(try parse(text) == .string(expected))
        }

        @Test(arguments: [
            (#""\uD83D""#, "unpaired surrogate"),
            (#""\uD83D\u0041""#, "unpaired surrogate"),
            (#""\uD83Dx""#, "unpaired surrogate"),
            (#""\uDE00""#, "unpaired surrogate"),
            (#""\u12""#, #"invalid \u escape"#),
            (#""\u12G4""#, #"invalid \u escape"#),
            (#""\x""#, "invalid escape sequence"),
            ("\"a\u{1}b\"", "control character in string"),
            ("\"tab\there\"", "control character in string"),
            ("\"line\nbreak\"", "control character in string"),
            (#""open"#, "unterminated string"),
            (#""open\"#, "unterminated string"),
        ])
        func invalidStrings(text: String, message: String) {
            #expect(syntaxError(text)?.message.contains(message) == true)
        }

        @Test func invalidUTF8IsRejected() {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }
        }

        // MARK: Objects and arrays

        @Test func duplicateKeysAreRejectedWhereTheSecondOneStarts() {
            let error = syntaxError("{\n  \"a\": 1,\n  \"a\": 2\n}")
            #expect(error == JSONSyntaxError(line: 3, column: 3, message: "duplicate key \"a\""))
        }

        @Test func sameKeyInDifferentObjectsIsFine() throws {
            #expect(try parse(#"{"a": {"a": 1}, "b": {"a": 2}}"#).objectValue?.keys == ["a", "b"])
        }

        @Test(arguments: [
            (#"[1,]"#, JSONValue.array([.number("1")])),
            (#"{"a": 1,}"#, .object(JSONObject([("a", .number("1"))]))),
            (#"{"a": [1, 2, ], }"#, .object(JSONObject([("a", .array([.number("1"), .number("2")]))]))),
            ("[1,\n]", .array([.number("1")])),
        ])
        func trailingCommasOnlyWhenAllowed(text: String, expected: JSONValue) throws {
            #expect(syntaxError(text)?.message.hasPrefix("unexpected") == true)
            #expect(try parse(text, trailingCommas: true) == expected)
        }

        @Test(arguments: [#"[,]"#, #"{,}"#, #"[1,,]"#, #"{"a": 1,,}"#, #"[,1]"#])
        func strayCommasAreRejectedEvenWhenTrailingCommasAreAllowed(text: String) {
            #expect(syntaxError(text, trailingCommas: true) != nil)
        }

        @Test(arguments: [#"{"a" 1}"#, #"{a: 1}"#, #"{"a": 1 "b": 2}"#, #"[1 2]"#, "{", "[", #"{"a":}"#, "", "   ", "{} x", "[] []"])
        func malformedStructures(text: String) {
            #expect(syntaxError(text) != nil)
        }

        // MARK: Error positions

        @Test(arguments: [
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "unexpected '2', expected ':'"),
            (#"["é", x]"#, 1, 7, "unexpected 'x', expected a value"),
            ("", 1, 1, "unexpected end of input, expected a value"),
            ("[1, 2", 1, 6, "unexpected end of input, expected ',' or ']'"),
            ("{}\n\n  x", 3, 3, "unexpected text after the JSON value"),
            ("[1,\r\n 01]", 2, 3, "unexpected '1', expected ',' or ']'"),
        ])
        func errorsNameLineAndColumn(text: String, line: Int, column: Int, message: String) {
            let error = syntaxError(text)
            #expect(error == JSONSyntaxError(line: line, column: column, message: message))
            #expect(error?.description == "line \(line), column \(column): \(message)")
        }

        // MARK: Limits and byte-order mark

        @Test func nestingUpToTheLimitParses() throws {
            let depth = JSONParser.maximumDepth
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(throws: Never.self) { try JSONParser.parse(text) }
            let objects = String(repeating: #"{"a":"#, count: depth - 1) + "1" + String(repeating: "}", count: depth - 1)
            #expect(throws: Never.self) { try JSONParser.parse(objects) }
        }

        @Test func nestingBeyondTheLimitIsAnErrorNotACrash() {
            let depth = JSONParser.maximumDepth + 1
            let error = syntaxError(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            #expect(error?.message == "nesting is too deep")
            #expect(syntaxError(String(repeating: "[", count: 100_000))?.message == "nesting is too deep")
        }

        @Test func leadingByteOrderMarkIsSkipped() throws {
            #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)) == .object(JSONObject([("a", .number("1"))])))
            #expect(try JSONParser.parse("\u{FEFF}[true]") == .array([.bool(true)]))
        }

        @Test func byteOrderMarkElsewhereIsAnError() {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[\u{FEFF}1]") }
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[1]\u{FEFF}") }
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0xEF, 0xBB]) }
        }
    }
}
