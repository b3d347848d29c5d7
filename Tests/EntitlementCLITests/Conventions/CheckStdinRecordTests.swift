import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `check --stdin`: every answer carries its input line; error lines are the one error shape;
/// csv and tsv escape what they must, on a terminal and in a pipe.
@Suite(.tags(.cli))
struct CheckStdinRecordTests {
    static let input = "lifetime\n\n" + String(repeating: "x", count: 5000) + "\nnobody\n"

    @Test func errorLinesCarryTheLineNumberAndTheID() throws {
        let result = runCLI(["check", "--stdin", "--store", demoStorePath], stdin: Self.input)
        #expect(result.exitCode == 2)
        let lines = try result.stdout.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        #expect(lines.count == 3, "the blank line is skipped but counted")
        guard case .object(let bad) = lines[1], case .object(let error) = bad["error"] else { Issue.record("no error line"); return }
        #expect(bad["line"] == .int(3))
        #expect(bad["customer_user_id"] == .string(String(repeating: "x", count: 64)))
        #expect(Set(error.keys) == ["code", "message", "hint", "exit_code"])
        #expect(error["code"] == .string("invalid_user_id") && error["exit_code"] == .int(2))
        guard case .object(let last) = lines[2] else { return }
        #expect(last["line"] == .int(4) && last["customer_user_id"] == .string("nobody"))
    }

    @Test func textFormsCarryTheLineNumberToo() {
        let tsv = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", "tsv", "--no-headers"], stdin: Self.input).stdout
        let rows = tsv.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.map { $0.last } == ["1", "3", "4"])
        #expect(rows[1][6] == "invalid_user_id")
        let table = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", "table"], stdin: Self.input).stdout
        let tableRows = table.split(separator: "\n")
        #expect(tableRows[0].hasPrefix("LINE  USER"))
        #expect(tableRows[2].hasPrefix("3     xxxx") && tableRows[2].contains("invalid_user_id"))
    }

    static let hostile = ["comma,id", "quote\"id", "esc\u{1B}[31mred", "bell\u{07}", "bidi\u{202E}cba", "tab\tid", "back\\slash", "cr\rid"]

    /// In a pipe, csv is exact (RFC 4180) and reads back to the ids; tsv escapes.
    @Test func csvInAPipeIsExactAndQuoted() {
        let result = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", "csv", "--no-headers"],
                            stdin: Self.hostile.joined(separator: "\n") + "\n")
        let ids = TableFittingTests().readCSV(result.stdout).map { $0[0] }
        #expect(ids == Self.hostile)
        #expect(result.stdout.contains("\"comma,id\",") && result.stdout.contains("\"quote\"\"id\","))
        let tsv = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", "tsv", "--no-headers"],
                         stdin: Self.hostile.joined(separator: "\n") + "\n").stdout
        #expect(tsv.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }
                == Self.hostile.map(Terminal.escape))
        #expect(!tsv.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E || $0.value == 0x0D })
    }

    /// On a terminal, no format lets an id drive it: every control and bidi mark is escaped,
    /// and a backslash is escaped once (never twice).
    @Test(arguments: ["csv", "tsv", "table"])
    func nothingRawReachesATerminal(_ format: String) {
        let stdout = OutputSink(capturingAsTerminal: true)
        var context = Context(environment: [:], stdout: stdout, stderr: OutputSink(capturingAsTerminal: false),
                              stdin: InputSource(text: Self.hostile.joined(separator: "\n") + "\n"), now: { demoDate }, loginName: "tester")
        context.terminalColumns = 400
        _ = CLI(context: context).run(["check", "--stdin", "--store", demoStorePath, "--output", format, "--color", "never"])
        let text = stdout.text
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && !(format == "csv" && $0 == "\r") && !(format == "tsv" && $0 == "\t")) || $0.value == 0x7F || $0.value == 0x202E }, "\(text)")
        #expect(text.contains("back\\\\slash") && !text.contains("back\\\\\\\\slash"))
        #expect(text.contains("esc\\u{1b}[31mred"))
    }

    /// Any id (generated): csv in a pipe reads back exactly; tsv is one line per id.
    @Test func delimitedAnswersRoundTripGeneratedIDs() {
        var random = SplitMix64(seed: 2026)
        let alphabet = ["a", ",", "\"", "\r", "\t", "\\", " ", "日", "\u{1B}", "é", "\u{202E}"]
        for _ in 0..<40 {
            let ids = (0..<5).map { _ in "u" + (0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined() }
            let input = ids.joined(separator: "\n") + "\n"
            let csv = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", "csv", "--no-headers"], stdin: input).stdout
            #expect(TableFittingTests().readCSV(csv).map { $0[0] } == ids.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 })
            let tsv = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", "tsv", "--no-headers"], stdin: input).stdout
            #expect(tsv.split(separator: "\n").count == ids.count)
        }
    }
}
