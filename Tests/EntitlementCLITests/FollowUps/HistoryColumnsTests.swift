import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementTeam
@testable import EntitlementIngest
@testable import EntitlementCLI
import EntitlementTestSupport

/// Issue 23 item 10: `history` keeps BY to the last, drops the team columns first, and says
/// when columns are hidden.
@Suite(.tags(.cli))
struct HistoryColumnsTests {
    @Test func dropOrderEndsWithBy() {
        let table = HistoryText.records([], audit: true).table
        let order = table.columns.filter { $0.dropRank != nil }.sorted { $0.dropRank! < $1.dropRank! }.map(\.header)
        #expect(order == ["SIGNATURE", "AUTHOR", "COMMIT", "ENV", "STARTS", "STORE", "TRANSACTION", "EXPIRES", "REASON", "BY"])
        #expect(table.columns.filter { $0.dropRank == nil }.map(\.header) == ["DATE", "EVENT", "PRODUCT"])
    }

    func history(width: Int, color: Bool = false) -> CLIResult {
        runCLI(["history", "manual-active", "--store", demoStorePath], environment: ["COLUMNS": String(width)] .merging(color ? ["CLICOLOR_FORCE": "1"] : ["NO_COLOR": "1"]) { $1 },
               terminal: true)
    }

    @Test(arguments: [100, 80])
    func byStaysAtNarrowWidths(_ width: Int) throws {
        let result = history(width: width)
        #expect(result.exitCode == 0)
        let header = try #require(result.stdout.split(separator: "\n").first)
        #expect(header.contains("BY"), "\(header)")
        #expect(result.stdout.split(separator: "\n").allSatisfy { CellWidth.of(String($0)) <= width })
    }

    @Test func hiddenColumnsAreNamedInOneDimLine() {
        let narrow = history(width: 100)
        let lines = narrow.stdout.split(separator: "\n")
        let hidden = 10 - (lines.first?.split(separator: " ", omittingEmptySubsequences: true).count ?? 0)
        #expect(lines.last.map(String.init) == "(\(hidden) columns hidden; widen the terminal or use --output json)")
        let coloured = history(width: 100, color: true)
        #expect(coloured.stdout.hasSuffix("\u{1B}[2m(\(hidden) columns hidden; widen the terminal or use --output json)\u{1B}[0m\n"))
        let wide = history(width: 300)
        #expect(!wide.stdout.contains("hidden"))
        let pipe = runCLI(["history", "manual-active", "--store", demoStorePath])
        #expect(!pipe.stdout.contains("hidden"))
    }
}
