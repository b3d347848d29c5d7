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

        @Test func aTreeAnswersFromItself() {
            let raw = RawObject(JSONObject([("last_event", .string("t"))]))
            #expect(raw.member("last_event") == .string("t"))
            #expect(raw.member("other") == nil)
        }
    }
}
