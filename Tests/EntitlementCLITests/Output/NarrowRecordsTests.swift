import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// On a narrow terminal, vertical records and the profile header wrap long
/// values (psql's wrapped format), so no line is wider than the terminal.
@Suite(.tags(.cli))
struct NarrowRecordsTests {
    @Test(arguments: [34, 40, 25])
    func statusFitsNarrowTerminals(_ width: Int) {
        for user in ["two-products", "multi-entitlement", "lifetime"] {
            let result = runCLI(["status", user, "--store", demoStorePath], environment: ["COLUMNS": String(width), "NO_COLOR": "1"], terminal: true)
            #expect(result.exitCode == 0)
            for line in result.stdout.split(separator: "\n") where !line.hasPrefix("Profile ") {
                #expect(CellWidth.of(String(line)) <= width, "\(user) at \(width): \(line)")
            }
            // Nothing is lost: the wrapped profile id reads back whole.
            if user == "two-products" { #expect(result.stdout.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "").contains("c5caaa7a-aaa0-4ebd-9923-5deb9377eee1")) }
        }
    }

    @Test func wrappingKeepsEveryCharacter() {
        #expect(TextTable.wrapped("abcdefghij", cells: 4) == ["abcd", "efgh", "ij"])
        #expect(TextTable.wrapped("日本語のid", cells: 3) == ["日", "本", "語", "のi", "d"])
        #expect(TextTable.wrapped("short", cells: 8) == ["short"])
        #expect(TextTable.wrapped("in a pipe never wraps", cells: nil) == ["in a pipe never wraps"])
        #expect(TextTable.wrapped("日", cells: 1) == ["日"])
    }

    @Test func aPipeGetsWholeValues() {
        let result = runCLI(["status", "two-products", "--store", demoStorePath])
        #expect(result.stdout.contains("c5caaa7a-aaa0-4ebd-9923-5deb9377eee1"))
    }
}
