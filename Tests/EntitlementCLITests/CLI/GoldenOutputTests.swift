import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

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

/// Golden files of the store-wide commands on the demo store.
@Suite(.tags(.cli))
struct StoreWideGoldenTests {
    let at = "2026-01-15T12:00:00Z"

    @Test func findTableAndJSON() {
        expectGolden(runCLI(["find", "--store", demoStorePath, "--at", at, "--state", "active,grace_period", "--entitlement", "premium"]).stdout,
                     named: "find-premium-active.txt")
        expectGolden(runCLI(["find", "--store", demoStorePath, "--at", at, "--state", "grace_period,billing_retry,revoked", "--json"]).stdout,
                     named: "find-trouble.jsonl")
    }

    @Test func summaryTextAndJSON() {
        expectGolden(runCLI(["summary", "--store", demoStorePath, "--at", at]).stdout, named: "summary-demo.txt")
        expectGolden(runCLI(["summary", "--store", demoStorePath, "--at", at], environment: ["NO_COLOR": "1"], terminal: true).stdout,
                     named: "summary-demo-terminal.txt")
        expectGolden(runCLI(["summary", "--store", demoStorePath, "--at", at, "--json"]).stdout, named: "summary-demo.json")
    }

    @Test func bulkGrantSummaryAndJSONLines() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let input = "manual-active\nnew-customer\n\nnew-customer\n\tbad\n"
        let arguments = ["grant", "--stdin", "premium", "--duration", "1m", "--reason", "Outage INC-42", "--actor", "dana", "--store", store]
        expectGolden(runCLI(arguments + ["--dry-run"], stdin: input, ids: IDSequence()).stdout, named: "grant-stdin-dry-run.txt")
        expectGolden(runCLI(arguments + ["--json"], stdin: input, ids: IDSequence()).stdout, named: "grant-stdin.jsonl")
    }

    @Test func revokePreview() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        expectGolden(runCLI(["revoke", "active-renewing", "premium", "--include-store", "--store", store]).stderr, named: "revoke-preview.txt")
    }
}
