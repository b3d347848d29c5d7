import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `history` keeps BY to the last, drops the team columns first, and says
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

    /// A support agent's e-mail as BY, a long product and event: at 80 columns DATE shows the day
    /// only and REASON and BY are cut before BY would go.
    @Test func byStaysAt80WithALongActorAndProduct() throws {
        let directory = TemporaryDirectory()
        let store = directory.store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["com.example.premium.monthly.subscription"]}}}"#)
        let grant = runCLI(["grant", "long-history@example.com", "premium", "--duration", "1m", "--store", store,
                            "--actor", "customer-support-agent@example.com", "--reason", "goodwill after the outage of the payment provider"])
        #expect(grant.exitCode == 0, "\(grant.stderr)")
        let result = runCLI(["history", "long-history@example.com", "--store", store], environment: ["COLUMNS": "80", "NO_COLOR": "1"], terminal: true)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header.contains("BY"), "\(result.stdout)")
        #expect(lines.allSatisfy { CellWidth.of($0) <= 80 }, "\(result.stdout)")
        #expect(lines.dropFirst().first?.hasPrefix("2026-01-15  ") == true, "the day only: \(result.stdout)")
        #expect(result.stdout.contains("customer-support"), "\(result.stdout)")
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
