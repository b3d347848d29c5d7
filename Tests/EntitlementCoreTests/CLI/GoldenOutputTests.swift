import Foundation
import Testing
@testable import EntitlementCore

/// What people read: help and tables, compared with files in Golden/.
/// Re-record on purpose with `RECORD_SNAPSHOTS=1 make test`.
@Suite(.tags(.cli))
struct GoldenOutputTests {
    @Test func mainHelp() {
        let result = runCLI(["--help"])
        #expect(result.exitCode == 0)
        expectGolden(result.stdout, named: "help.txt")
        #expect(runCLI(["help"]).stdout == result.stdout)
        #expect(runCLI([]).stdout == result.stdout)
    }

    @Test(arguments: Command.specs.map(\.name))
    func commandHelp(_ name: String) {
        let result = runCLI(["help", name])
        #expect(result.exitCode == 0)
        expectGolden(result.stdout, named: "help-\(name).txt")
        if name != "help" { #expect(runCLI([name, "--help"]).stdout == result.stdout) }
        if name != "help" { #expect(runCLI([name, "-h"]).stdout == result.stdout) }
    }

    @Test func checkLinesForEveryDemoProfile() throws {
        var out = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: demoStorePath + "/profiles").sorted() {
            let user = String(name.dropLast(".json".count))
            let result = runCLI(["check", user, "--store", demoStorePath])
            out += result.stdout + "  exit \(result.exitCode)\n"
        }
        expectGolden(out, named: "check-demo.txt")
    }

    @Test(arguments: ["multi-entitlement", "grace-period", "lifetime", "no-purchases"])
    func statusTable(_ user: String) {
        let result = runCLI(["status", user, "--store", demoStorePath])
        #expect(result.exitCode == 0)
        expectGolden(result.stdout, named: "status-\(user).txt")
    }

    @Test func statusExplain() {
        expectGolden(runCLI(["status", "two-products", "--store", demoStorePath, "--explain"]).stdout, named: "status-two-products-explain.txt")
        expectGolden(runCLI(["check", "refunded", "--store", demoStorePath, "--explain"]).stdout, named: "check-refunded-explain.txt")
    }

    @Test func statusJSON() {
        expectGolden(runCLI(["status", "multi-entitlement", "--store", demoStorePath, "--json"]).stdout, named: "status-multi-entitlement.json")
        expectGolden(runCLI(["check", "grace-period", "--store", demoStorePath, "--json"]).stdout, named: "check-grace-period.json")
    }

    @Test func historyTableAndJSON() {
        expectGolden(runCLI(["history", "manual-active", "--store", demoStorePath]).stdout, named: "history-manual-active.txt")
        expectGolden(runCLI(["history", "refunded", "--store", demoStorePath, "--json"]).stdout, named: "history-refunded.json")
        let limited = runCLI(["history", "active-renewing", "--store", demoStorePath, "--limit", "1", "--json"])
        #expect(limited.stdout.components(separatedBy: "\"event\"").count == 2)
        let since = runCLI(["history", "active-renewing", "--store", demoStorePath, "--since", "2030-01-01"])
        #expect(since.stdout.hasPrefix("No events"))
    }
}
