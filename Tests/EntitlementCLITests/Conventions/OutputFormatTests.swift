import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Every --output format, and tables on narrow and wide terminals, as golden files.
@Suite(.tags(.cli))
struct OutputFormatTests {
    static let formats = OutputFormat.allCases.map(\.rawValue)

    @Test(arguments: formats)
    func statusInEveryFormat(_ format: String) {
        let result = runCLI(["status", "multi-entitlement", "--store", demoStorePath, "--output", format])
        #expect(result.exitCode == 0, "\(result.stderr)")
        expectGolden(result.stdout, named: "output/status-\(format).txt")
    }

    @Test(arguments: formats)
    func historyInEveryFormat(_ format: String) {
        let result = runCLI(["history", "manual-active", "--store", demoStorePath, "--output", format])
        #expect(result.exitCode == 0, "\(result.stderr)")
        expectGolden(result.stdout, named: "output/history-\(format).txt")
    }

    @Test(arguments: formats)
    func checkStdinInEveryFormat(_ format: String) {
        let result = runCLI(["check", "--stdin", "--store", demoStorePath, "--output", format, "--strict"],
                            stdin: "lifetime\nnobody\ngrace-period\n")
        #expect(result.exitCode == 3)
        expectGolden(result.stdout, named: "output/check-stdin-\(format).txt")
    }

    @Test func jsonIsAnAliasOfOutputJSON() {
        for arguments in [["status", "multi-entitlement"], ["history", "refunded"], ["check", "lifetime"]] {
            let base = arguments + ["--store", demoStorePath]
            #expect(runCLI(base + ["--json"]).stdout == runCLI(base + ["--output", "json"]).stdout)
        }
        // check --stdin keeps JSON Lines under --json, as it always has.
        let lines = runCLI(["check", "--stdin", "--json", "--store", demoStorePath], stdin: "lifetime\n")
        #expect(lines.stdout == runCLI(["check", "--stdin", "--output", "jsonl", "--store", demoStorePath], stdin: "lifetime\n").stdout)
    }

    @Test func noHeadersDropsTheHeaderRow() {
        let base = ["history", "manual-active", "--store", demoStorePath]
        for format in ["csv", "tsv"] {
            let with = runCLI(base + ["--output", format]).stdout.utf8.split(separator: 0x0A).map(Array.init)
            let without = runCLI(base + ["--output", format, "--no-headers"]).stdout.utf8.split(separator: 0x0A).map(Array.init)
            #expect(Array(with.dropFirst()) == without, "\(format)")
        }
        // A table without headers aligns its rows on their own widths.
        let table = runCLI(base + ["--no-headers"]).stdout
        #expect(!table.contains("DATE") && table.hasPrefix("2026-01-10 08:00 UTC  grant  manual-02ee5c"))
    }

    /// Status on terminals from wide to narrow: relative dates go first, then PRODUCT, STORE and
    /// RENEWAL; below the width of what is left, vertical records.
    @Test(arguments: [200, 100, 80, 60, 40])
    func statusFitsTheTerminal(_ columns: Int) {
        let result = runCLIOnTerminal(["status", "multi-entitlement", "--store", demoStorePath, "--color", "never"], columns: columns)
        expectGolden(result.stdout, named: "output/status-width-\(columns).txt")
        let table = result.stdout.components(separatedBy: "\n\n").last ?? ""
        if !table.hasPrefix("-[ RECORD") {
            for line in table.split(separator: "\n") { #expect(CellWidth.of(line) <= columns, "\(line)") }
        }
    }

    @Test(arguments: [160, 80, 50])
    func historyFitsTheTerminal(_ columns: Int) {
        let result = runCLIOnTerminal(["history", "manual-active", "--store", demoStorePath, "--color", "never"], columns: columns)
        expectGolden(result.stdout, named: "output/history-width-\(columns).txt")
    }

    @Test func columnsFromTheEnvironmentWinAndAPipeIsNeverShortened() {
        let arguments = ["status", "multi-entitlement", "--store", demoStorePath, "--color", "never"]
        #expect(runCLIOnTerminal(arguments, columns: 200, environment: ["COLUMNS": "60"]).stdout == runCLIOnTerminal(arguments, columns: 60).stdout)
        #expect(runCLIOnTerminal(arguments, columns: nil).stdout == runCLIOnTerminal(arguments, columns: 80).stdout, "80 when the size is unknown")
        #expect(runCLI(arguments, environment: ["COLUMNS": "20"]).stdout == runCLIOnTerminal(arguments, columns: 1000).stdout)
    }
}
