import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `find` and `summary` in every output format, and fitted to narrow and wide terminals.
@Suite(.tags(.cli))
struct FindSummaryOutputTests {
    static let findFilter = ["--state", "active,grace_period,billing_retry,revoked"]

    @Test(arguments: OutputFormat.allCases.map(\.rawValue))
    func findInEveryFormat(_ format: String) {
        let result = runCLI(["find", "--store", demoStorePath, "--output", format] + Self.findFilter)
        #expect(result.exitCode == 0, "\(result.stderr)")
        expectGolden(result.stdout, named: "output/find-\(format).txt")
    }

    @Test func findJSONIsJSONLinesAndTheArrayParses() throws {
        let base = ["find", "--store", demoStorePath] + Self.findFilter
        #expect(runCLI(base + ["--json"]).stdout == runCLI(base + ["--output", "jsonl"]).stdout)
        #expect(runCLI(base + ["--json", "--output", "csv"]).exitCode == 2)
        let array = try JSONParser.parse(Array(runCLI(base + ["--output", "json"]).stdout.utf8))
        guard case .array(let items) = array else { Issue.record("not an array"); return }
        #expect(items.count == runCLI(base + ["--json"]).stdout.split(separator: "\n").count)
        #expect(runCLI(["find", "--store", demoStorePath, "--state", "scheduled", "--entitlement", "science", "--output", "json"]).stdout == "[]\n")
    }

    @Test func findWithoutHeaders() {
        let base = ["find", "--store", demoStorePath] + Self.findFilter
        for format in ["csv", "tsv", "table"] {
            let with = runCLI(base + ["--output", format]).stdout.utf8.split(separator: 0x0A).map(Array.init)
            let without = runCLI(base + ["--output", format, "--no-headers"]).stdout.utf8.split(separator: 0x0A).map(Array.init)
            #expect(with.count == without.count + 1, "\(format)")
            if format != "table" { #expect(Array(with.dropFirst()) == without, "\(format)") }
        }
    }

    /// Relative dates go first, then PRODUCT, STORE, EXPIRES and ENTITLEMENT; below what is
    /// left, vertical records. Every line fits.
    @Test(arguments: [200, 100, 80, 60, 40, 25])
    func findFitsTheTerminal(_ columns: Int) {
        let result = runCLIOnTerminal(["find", "--store", demoStorePath, "--color", "never"] + Self.findFilter, columns: columns)
        expectGolden(result.stdout, named: "output/find-width-\(columns).txt")
        for line in result.stdout.split(separator: "\n") where !line.hasPrefix("-[ RECORD") && !line.contains(" | ") {
            #expect(CellWidth.of(line) <= columns, "\(line)")
        }
    }

    @Test func findInAPipeIsNeverShortened() {
        let arguments = ["find", "--store", demoStorePath] + Self.findFilter
        #expect(runCLI(arguments, environment: ["COLUMNS": "20"]).stdout == runCLIOnTerminal(arguments + ["--color", "never"], columns: 1000).stdout)
    }

    /// Rows after the sample the widths come from: cut with … on a terminal, whole in a pipe.
    @Test func laterRowsFollowTheSampleLayout() {
        let columns: [TextTable.Column] = [.init("ID"), .init("NOTE", dropRank: 1)]
        var terminal = StreamingTable(columns: columns, width: 20)
        terminal.sampleSize = 2
        var pipe = StreamingTable(columns: columns, width: nil)
        pipe.sampleSize = 2
        var onTerminal = "", inPipe = ""
        for row in [["a", "x"], ["bb", "y"], ["a-very-long-customer-id", "zzzzzzzzzzzzzzzz"], ["日本語の顧客", "n"]] {
            onTerminal += terminal.append(row)
            inPipe += pipe.append(row)
        }
        onTerminal += terminal.finish()
        inPipe += pipe.finish()
        #expect(onTerminal == "ID  NOTE\na   x\nbb  y\na…  zzzzzzzzzzzzzzzz\n…   n\n")
        #expect(inPipe == "ID  NOTE\na   x\nbb  y\na-very-long-customer-id  zzzzzzzzzzzzzzzz\n日本語の顧客  n\n")
        for line in onTerminal.split(separator: "\n") { #expect(CellWidth.of(line) <= 20) }
    }

    /// Summary: bars at most 40 cells and never past the width; the store table fits too.
    @Test(arguments: [120, 80, 50, 30])
    func summaryFitsTheTerminal(_ columns: Int) {
        let result = runCLIOnTerminal(["summary", "--store", demoStorePath, "--color", "never"], columns: columns)
        #expect(result.exitCode == 0)
        expectGolden(result.stdout, named: "output/summary-width-\(columns).txt")
        for line in result.stdout.split(separator: "\n") where line.contains("█") || line.hasPrefix("  STORE") {
            #expect(CellWidth.of(line) < columns, "\(line)")
        }
    }

    @Test func summaryOutputChoices() {
        let base = ["summary", "--store", demoStorePath]
        #expect(runCLI(base + ["--output", "json"]).stdout == runCLI(base + ["--json"]).stdout)
        #expect(runCLI(base + ["--output", "table"]).stdout == runCLI(base).stdout)
        let csv = runCLI(base + ["--output", "csv"])
        #expect(csv.exitCode == 2 && csv.stderr.contains("'csv'; expected table or json"))
    }

    @Test(arguments: [200, 60, 30, 12])
    func progressLinesFitTheTerminal(_ columns: Int) {
        for (label, done, total) in [("find", 500_000, 1_000_000), ("verify", 3, 1_000_000_000)] {
            let line = StatusLine.fitted(ScanProgress.bar(label: label, done: done, total: total, lineWidth: columns), width: columns)
            #expect(CellWidth.of(line) < columns, "\(line)")
            if columns >= 60 { #expect(line.contains("[#") || line.contains("[.")) }
        }
        #expect(ScanProgress.bar(label: "find", done: 5, total: 10, lineWidth: 200) == "find [###############...............] 50%  5/10 profiles")
    }
}
