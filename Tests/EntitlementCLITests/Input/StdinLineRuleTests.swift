import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// One line rule for every `--stdin`,
/// failures of `grant --stdin` on standard error too, and refused lines not kept.
@Suite(.tags(.cli))
struct StdinLineRuleTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [
        ("alice@x.io", StdinLine.id("alice@x.io")),
        ("alice@x.io\r", .id("alice@x.io")),
        ("", .skipped), ("\r", .skipped), (" \t ", .skipped),
        ("# a comment", .skipped), ("#", .skipped),
        ("  user@x.io  ", .refused(.surroundingWhitespace("  user@x.io  "))),
        ("user@x.io\t", .refused(.surroundingWhitespace("user@x.io\t"))),
        ("\u{A0}user", .refused(.surroundingWhitespace("\u{A0}user"))),
        ("  # indented comment", .refused(.surroundingWhitespace("  # indented comment"))),
        ("a b", .id("a b")), ("a#b", .id("a#b")),
    ])
    func lineRule(_ text: String, _ expected: StdinLine) {
        #expect(StdinLine.read(Array(text.utf8)[...]) == expected)
    }

    @Test func longAndNonUTF8LinesAreRefused() {
        #expect(StdinLine.read([0xFF][...]) == .refused(.invalidUTF8))
        #expect(StdinLine.read(Array(repeating: 0x61, count: 4097)[...]) == .refused(.tooLong(bytes: 4097)))
    }

    static let input = "# customers of INC-42\n\nalice@x.io\n  user@x.io  \n   \nbob@x.io\n"

    /// The same input, the same reading: line 4 refused with its number, lines 1, 2 and 5 skipped.
    @Test func checkAndGrantReadTheSameLines() throws {
        let store = directory.copyOfDemoStore()
        let check = runCLI(["check", "--stdin", "premium", "--store", store, "--output", "jsonl"], stdin: Self.input)
        #expect(check.exitCode == 2)
        let answers = try check.stdout.split(separator: "\n").map { try #require(try JSONParser.parse(String($0)).objectValue) }
        #expect(answers.map { $0["line"] } == [.int(3), .int(4), .int(6)])
        #expect(answers[1]["error"]?.objectValue?["code"] == .string("invalid_user_id"))
        #expect(answers[1]["error"]?.objectValue?["message"]?.stringValue?.contains("starts or ends with white space") == true)

        let grant = runCLI(["grant", "--stdin", "premium", "--duration", "7d", "--store", store, "--json"], stdin: Self.input)
        #expect(grant.exitCode == 2)
        let results = try grant.stdout.split(separator: "\n").map { try #require(try JSONParser.parse(String($0)).objectValue) }
        #expect(Set(results.compactMap { $0["line"]?.doubleValue.map(Int.init) }) == [3, 4, 6])
        #expect(results.first { $0["line"] == .int(4) }?["result"] == .string("failed"))
        let profiles = try FileManager.default.contentsOfDirectory(atPath: store + "/profiles")
        #expect(profiles.contains("alice@x.io.json") && profiles.contains("bob@x.io.json"))
        #expect(!profiles.contains { $0.contains("%23") || $0.contains("user@x.io") })
    }

    /// With the output in a file, the person at the terminal still sees each failure.
    @Test(arguments: [[], ["--json"], ["-q"]])
    func grantStdinFailuresGoToStandardError(_ extra: [String]) throws {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["grant", "--stdin", "premium", "--duration", "7d", "--store", store] + extra, stdin: "ok-1\n\tbad\nok-2\n")
        #expect(result.exitCode == 2)
        if extra == ["--json"] {
            let error = try #require(try JSONParser.parse(result.stderr).objectValue?["error"]?.objectValue)
            #expect(error["message"] == .string("line 2: the user id starts or ends with white space."))
        } else {
            #expect(result.stderr == "Error: line 2: '\\tbad': the user id starts or ends with white space.\n")
        }
        #expect(result.stdout.isEmpty == (extra == ["-q"]))
    }

    /// Refused lines are reported and forgotten; memory holds only the ids to grant.
    @Test func refusedLinesAreNotKept() {
        var input = BulkGrantInput()
        var reported = 0
        for number in 0..<100_000 {
            input.read(Array(" bad-\(number)".utf8)[...]) { _ in reported += 1 }
        }
        input.read(Array("good".utf8)[...]) { _ in reported += 1 }
        #expect(reported == 100_000)
        #expect(input.refusedCount == 100_000)
        #expect(input.lines.map(\.userID) == ["good"])
        #expect(input.lines.first?.number == 100_001)
    }

    @Test func summaryListsTheFirstFailuresAndCountsTheRest() {
        let store = directory.copyOfDemoStore()
        let bad = (1...50).map { " bad-\($0)" }.joined(separator: "\n")
        let result = runCLI(["grant", "--stdin", "premium", "--duration", "7d", "--store", store], stdin: "ok\n" + bad + "\n")
        #expect(result.exitCode == 2)
        #expect(result.stdout.contains("  line 21: ' bad-20': the user id starts or ends with white space.\n"))
        #expect(!result.stdout.contains("line 22:"))
        #expect(result.stdout.contains("  … and 30 more (each on standard error).\n"))
        #expect(result.stderr.split(separator: "\n").count == 50)
        #expect(result.stdout.contains("failed                       50"))
    }
}
