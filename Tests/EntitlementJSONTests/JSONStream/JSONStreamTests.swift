import Testing
@testable import EntitlementJSON
import EntitlementTestSupport

extension UnitTests {
    /// Output written straight into bytes (`JSONStream`) is the text `JSONWriter` writes for
    /// the same tree, in both styles.
    struct JSONStreamTests {
        /// Streams `value` member by member (keys in byte order), as the renderers do.
        static func stream(_ value: JSONValue, into out: inout JSONStream, depth: Int) {
            switch value {
            case .object(let object) where depth < 3:
                out.beginObject()
                for entry in JSONWriter.sorted(object.entries) {
                    out.key(named: entry.key)
                    stream(entry.value, into: &out, depth: depth + 1)
                }
                out.endObject()
            case .array(let items) where depth < 3:
                out.beginArray()
                for item in items {
                    out.element()
                    stream(item, into: &out, depth: depth + 1)
                }
                out.endArray()
            case .string(let text): out.string(text)
            case .bool(let flag): out.bool(flag)
            case .null: out.null()
            default: out.value(value)
            }
        }

        static func tree(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
            let keys = ["a", "b", "id", "é", "zz", "A", "with \"quote\"", "line\nbreak", ""]
            switch ProfileGenerator.draw(&random, depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(random.next() % 2 == 0)
            case 2: return .int(Int(random.next() % 1000))
            case 3: return .string(keys[ProfileGenerator.draw(&random, keys.count)])
            case 4: return .number("2.5e-3")
            case 5: return .array((0..<ProfileGenerator.draw(&random, 4)).map { _ in tree(&random, depth: depth + 1) })
            default:
                return .object(JSONObject((0..<ProfileGenerator.draw(&random, 5)).map { _ in
                    (keys[ProfileGenerator.draw(&random, keys.count)], tree(&random, depth: depth + 1))
                }))
            }
        }

        @Test func streamWritesWhatTheWriterWrites() {
            var random = SplitMix64(seed: 14_07)
            for round in 0..<3_000 {
                let value = Self.tree(&random)
                for style in [JSONWriter.Style.pretty, .compact] {
                    var out = JSONStream(style: style)
                    Self.stream(value, into: &out, depth: 0)
                    var expected: [UInt8] = []
                    JSONWriter(style: style).write(value, indent: 0, into: &expected)
                    #expect(out.bytes == expected, "round \(round)")
                }
            }
        }
    }
}
