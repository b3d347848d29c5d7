import Testing
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// `RawObject.member` reads one top-level field of an object kept as bytes without parsing
    /// the rest, and always answers what the parsed object would (`object[key]`).
    struct RawObjectMemberTests {
        static let documents = [
            #"{"a": 1, "last_event": {"at": "2026-01-01T00:00:00Z", "vendor": "x"}, "z": [1, {"b": null}]}"#,
            #"{"transactions": [{"x": {"y": {"z": [[[]]]}}}], "last_event": null}"#,
            #"{"k\u0061y": 2, "last_event": "escaped key before it"}"#,
            #"{}"#,
            #"{"aliases": ["b", "a"], "last_event":{"at":"x"}}"#,
            "{\n  \"last_event\" :\n  {\"at\": \"2026-02-02T00:00:00Z\"}\n}",
            #"{"a": "x}\"{,", "b": [1, "]", {"c": "}"}], "n": -1.5e3, "t": true, "last_event": {"at": "]"}}"#,
            #"{"renewal_info": {"k1": {}, "k2": {"x": [{}]}}, "aliases": [], "last_event": false}"#,
        ]

        @Test(arguments: documents)
        func aMemberIsWhatTheParsedObjectHolds(document: String) throws {
            let bytes = Array(document.utf8)
            let raw = RawObject(bytes: bytes, range: 0..<bytes.count)
            let parsed = try #require(try JSONParser.parse(bytes).objectValue)
            for key in ["last_event", "aliases", "a", "b", "n", "t", "z", "renewal_info", "missing", "kay"] {
                #expect(raw.member(key) == parsed[key], "\(key) of \(document)")
            }
        }

        /// `object(replacing:)` is the object with the named members as `null` in their places,
        /// whether it parses only the other members (bytes with member ranges), or all of them.
        @Test func replacingLeavesTheOtherMembersAsParsedAndTheNamedOnesNull() throws {
            let members: [(key: String, value: String)] = [("a", "1"), ("transactions", "[{\"x\": 1}, 2]"), ("b", "{\"c\": \"d\"}"), ("renewal_info", "{}")]
            let document = "{" + members.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
            let bytes = Array(document.utf8)
            var ranges: [Range<Int>] = []
            var at = 1
            for member in members {
                let keyStart = at + 1
                ranges.append(keyStart..<(keyStart + member.key.utf8.count))
                let valueStart = keyStart + member.key.utf8.count + 3
                ranges.append(valueStart..<(valueStart + member.value.utf8.count))
                at = valueStart + member.value.utf8.count + 2
            }
            let replaced: Set<String> = ["transactions", "renewal_info", "absent"]
            var expected = try #require(try JSONParser.parse(bytes).objectValue)
            expected["transactions"] = .null
            expected["renewal_info"] = .null
            for raw in [RawObject(bytes: bytes, range: 0..<bytes.count, members: ranges), RawObject(bytes: bytes, range: 0..<bytes.count),
                        RawObject(try #require(try JSONParser.parse(bytes).objectValue))] {
                let object = raw.object(replacing: replaced)
                #expect(object == expected, "\(object)")
                #expect(object.keys == ["a", "transactions", "b", "renewal_info"], "members keep their places; none is added")
            }
        }

        @Test func aTreeAnswersFromItself() {
            let raw = RawObject(JSONObject([("last_event", .string("t"))]))
            #expect(raw.member("last_event") == .string("t"))
            #expect(raw.member("other") == nil)
        }
    }
}
