import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Defects in reading input and printing data: each test failed before its fix.
@Suite(.tags(.cli))
struct InputDefectTests {
    // MARK: Terminal escaping

    @Test(arguments: [(UInt32(0x061C), "\\u{61c}"), (0x2028, "\\u{2028}"), (0x2029, "\\u{2029}"), (0x200E, "\\u{200e}"),
                      (0x202E, "\\u{202e}"), (0x2067, "\\u{2067}"), (0x85, "\\u{85}"), (0x1B, "\\u{1b}"), (0x7F, "\\u{7f}")])
    func invisibleAndReorderingCharactersAreEscaped(_ value: UInt32, _ expected: String) {
        let text = "a" + String(Character(Unicode.Scalar(value)!)) + "b"
        #expect(Terminal.escape(text) == "a\(expected)b")
    }

    @Test func aLiteralEscapeTextNeverLooksLikeTheCharacter() {
        #expect(Terminal.escape("\u{1b}") == "\\u{1b}")
        #expect(Terminal.escape("\\u{1b}") == "\\\\u{1b}")
        #expect(Terminal.escape("C:\\x") == "C:\\\\x")
    }

    /// Property: escaping is one-to-one (no two inputs print the same) and prints no Cc, Zl, Zp or bidi control.
    @Test func escapingIsInjectiveAndClean() {
        var random = SplitMix64(seed: 0x5EED)
        let alphabet: [Unicode.Scalar] = ["a", "\\", "u", "{", "}", "1", "b", "\u{1b}", "\u{2028}", "\u{61c}", "\n", "\u{85}", "é"]
        var seen: [String: String] = [:]
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 6) { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            let escaped = Terminal.escape(text)
            #expect(!escaped.unicodeScalars.contains { $0 != "\\" && Terminal.needsEscape($0) })
            if let other = seen[escaped] { #expect(other == text, "'\(other)' and '\(text)' print the same") }
            seen[escaped] = text
        }
    }

    // MARK: Durations

    @Test(arguments: ["P1Y1Y", "P1M1M", "P1D1Y", "PT1H1H", "PT1S1M", "P1W1Y", "P1DT1H1H"])
    func repeatedOrMisorderedDesignatorsAreRejected(_ text: String) {
        #expect(GrantDuration.parse(text) == nil)
    }

    @Test func orderedDesignatorsStillParse() {
        #expect(GrantDuration.parse("P1Y2M3DT4H5M6S") == .some(GrantDuration(months: 14, seconds: 3 * 86_400 + 4 * 3600 + 5 * 60 + 6)))
        #expect(GrantDuration.parse("P1M") == .some(GrantDuration(months: 1)))
        #expect(GrantDuration.parse("PT1M") == .some(GrantDuration(seconds: 60)))
    }

    // MARK: Object keys: raw bytes everywhere

    @Test func nfcAndNfdKeysAreTwoKeysForParserLookupAndWriter() throws {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        let value = try JSONParser.parse("{\"\(nfc)\": 1, \"\(nfd)\": 2}")
        let object = try #require(value.objectValue)
        #expect(object.entries.count == 2)
        #expect(object[nfc] == .number("1"))
        #expect(object[nfd] == .number("2"))
        #expect(try JSONParser.parse(JSONWriter().bytes(value)) == value)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\"\(nfc)\": 1, \"\(nfc)\": 2}") }
        // The writer orders keys by bytes: "cafe\u{301}" (0x65…) before "caf\u{E9}" (0xC3…).
        #expect(JSONWriter(style: .compact).string(value) == "{\"\(nfd)\":2,\"\(nfc)\":1}")
    }

    @Test func largeObjectsUseTheSameByteRule() throws {
        var text = "{"
        for index in 0..<40 { text += "\"k\(index)\": \(index), " }
        text += "\"\u{212A}\": 1, \"K\": 2}"  // the Kelvin sign equals "K" as a Swift String, not as bytes
        let value = try JSONParser.parse(text)
        #expect(value.objectValue?.entries.count == 42)
        #expect(JSONObject(value.objectValue!.entries.map { ($0.key, $0.value) }).entries.count == 42)
    }

    // MARK: check --stdin lines

    /// Property: however the input is cut into chunks, the lines are those of a plain split.
    @Test func linesDoNotDependOnChunking() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let input = (0..<Int(random.next() % 200)).map { _ in [UInt8(ascii: "a"), UInt8(ascii: "b"), 0x0A][Int(random.next() % 3)] }
            var buffer = LineBuffer()
            var lines: [[UInt8]] = []
            var offset = 0
            while offset < input.count {
                let size = 1 + Int(random.next() % 17)
                lines += buffer.feed(Array(input[offset..<min(offset + size, input.count)])).map(Array.init)
                offset += size
            }
            if let last = buffer.finish() { lines.append(Array(last)) }
            var expected = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if expected.last?.isEmpty == true { expected.removeLast() }
            #expect(lines == expected)
            #expect(buffer.bytesExamined == input.count)
        }
    }

    func workForOneLongLine(_ length: Int) -> (work: Int, kept: Int) {
        var buffer = LineBuffer()
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        var fed = 0
        while fed < length {
            #expect(buffer.feed(Array(chunk.prefix(length - fed))).isEmpty)
            fed += min(chunk.count, length - fed)
        }
        let last = buffer.finish()
        return (buffer.bytesExamined, last?.count ?? 0)
    }

    @Test func oneLongLineCostsLinearWorkAndBoundedMemory() {
        let single = workForOneLongLine(4_000_000), double = workForOneLongLine(8_000_000)
        #expect(double.work == 2 * single.work)
        #expect(single.kept == LineBuffer.defaultKeep && double.kept == LineBuffer.defaultKeep)
        let result = runCLI(["check", "--stdin", "--store", demoStorePath], stdin: String(repeating: "u", count: 300_000) + "\nmulti-entitlement\n")
        #expect(result.stdout.contains("longer than 4096 bytes"))
        #expect(result.stdout.contains("\"customer_user_id\":\"multi-entitlement\""))
    }

    // MARK: Qonversion: one transaction list entry per key, found in constant time

    @Test func qonversionRepeatsMergeIntoOneTransaction() {
        var document = ImportDocument(format: .qonversion, shape: .entitlements)
        var positions: [TransactionKey: Int] = [:]
        var random = SplitMix64(seed: 7)
        var distinct = Set<String>()
        for _ in 0..<2_000 {
            let id = "t\(random.next() % 500)"
            distinct.insert(id)
            let transaction = Transaction(transactionID: id, productID: "p", store: .appStore, type: .subscriptionStarted,
                                          purchasedAt: Date(timeIntervalSince1970: 0), expiresAt: nil)
            QonversionMapper.add(MappedTransaction(transaction, vendor: .object(JSONObject())), into: &document, positions: &positions)
        }
        #expect(document.transactions.count == distinct.count)
        #expect(positions.count == distinct.count)
        for (key, index) in positions { #expect(document.transactions[index].key == key) }
    }
}
