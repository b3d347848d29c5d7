import Foundation
import Testing
@testable import EntitlementRules
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `find` and `summary` on the demo store at its fixed date.
@Suite(.tags(.cli))
struct FindSummaryTests {
    let at = "2026-01-15T12:00:00Z"

    func find(_ arguments: [String]) -> CLIResult {
        runCLI(["find", "--store", demoStorePath, "--at", at] + arguments)
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func graceAndRetryAsJSONLines() throws {
        let result = find(["--state", "grace_period,billing_retry", "--json"])
        #expect(result.exitCode == 0)
        let lines = try jsonLines(result.stdout)
        #expect(lines.map { "\($0["customer_user_id"]!) \($0["id"]!) \($0["state"]!)" } == [
            "billing-retry premium billing_retry", "grace-period premium grace_period", "multi-entitlement science billing_retry",
        ])
        #expect(lines.allSatisfy { $0["evaluated_at"] as? String == at && $0["profile_id"] != nil })
        #expect(result.stderr.isEmpty, "no progress bar without a terminal")
    }

    @Test func noMatchIsExitOne() {
        let result = find(["--state", "revoked", "--entitlement", "sports"])
        #expect(result.exitCode == 1)
        #expect(result.stdout == "No customer matches.\n")
        #expect(find(["--state", "revoked", "--entitlement", "sports", "--quiet"]).stdout.isEmpty)
    }

    @Test func usageErrors() {
        let typo = find(["--entitlement", "premum"])
        #expect(typo.exitCode == 3)
        #expect(typo.stderr.contains("Did you mean 'premium'?"))
        #expect(find(["--state", "gone"]).exitCode == 2)
        #expect(find(["--expiring-within", "soon"]).exitCode == 2)
        #expect(find(["--attribute", "country"]).exitCode == 2)
        #expect(find(["--quiet", "--json"]).exitCode == 2)
        // An --output an alias set is not printed under --quiet (as with check): the exit code answers.
        let quiet = find(["--state", "active", "--output", "csv", "-q"])
        #expect(quiet.exitCode == 0 && quiet.stdout.isEmpty)
        #expect(runCLI(["--output", "csv", "-q", "find", "--store", demoStorePath, "--at", at, "--state", "grace_period"]).exitCode == 0)
    }

    @Test func attributeAndExpiringFilters() throws {
        let nl = try jsonLines(find(["--attribute", "country=NL", "--state", "active", "--json"]).stdout)
        #expect(nl.map { $0["customer_user_id"] as? String } == ["multi-entitlement"])
        let soon = try jsonLines(find(["--entitlement", "premium", "--expiring-within", "7d", "--json"]).stdout)
        #expect(soon.map { $0["customer_user_id"] as? String } == ["family-shared", "sandbox-only", "trial"])
    }

    /// summary and find count the same thing: for every entitlement and state, the count
    /// summary shows is the number of lines find prints.
    @Test func summaryCountsAgreeWithFind() throws {
        let summary = try #require(try JSONSerialization.jsonObject(
            with: Data(runCLI(["summary", "--store", demoStorePath, "--at", at, "--json"]).stdout.utf8)) as? [String: Any])
        let entitlements = try #require(summary["entitlements"] as? [[String: Any]])
        #expect(entitlements.map { $0["id"] as? String } == ["premium", "sports", "science"])
        for entry in entitlements {
            let id = try #require(entry["id"] as? String)
            let states = try #require(entry["states"] as? [String: Int])
            for state in AccessState.allCases {
                let lines = find(["--entitlement", id, "--state", state.rawValue, "--json"]).stdout.split(separator: "\n").count
                #expect(states[state.rawValue] == lines, "\(id) \(state.rawValue)")
            }
            let soon = find(["--entitlement", id, "--expiring-within", "7d", "--json"]).stdout.split(separator: "\n").count
            #expect(entry["expiring_within_7_days"] as? Int == soon)
            #expect(entry["billing_trouble"] as? Int == (states["grace_period"] ?? 0) + (states["billing_retry"] ?? 0))
        }
        #expect(summary["profiles"] as? Int == 17)
    }

    @Test func progressBarOnlyOnATerminal() {
        let terminal = runCLI(["find", "--store", demoStorePath, "--at", at, "--state", "grace_period"], terminal: true)
        #expect(terminal.stderr.contains("find [##############################] 100%  17/17 profiles"))
        let quiet = runCLI(["find", "--store", demoStorePath, "--at", at, "--state", "grace_period", "--quiet"], terminal: true)
        #expect(quiet.stderr.isEmpty)
        #expect(quiet.exitCode == 0)
    }

    @Test func summaryDrawsBarsOnlyOnATerminal() {
        let plain = runCLI(["summary", "--store", demoStorePath, "--at", at])
        #expect(!plain.stdout.contains("█"))
        let terminal = runCLI(["summary", "--store", demoStorePath, "--at", at], environment: ["NO_COLOR": "1"], terminal: true)
        #expect(terminal.stdout.contains("  active         10  " + String(repeating: "█", count: 40) + "\n"))
    }

    @Test func unreadableProfileIsNamedAndExitFour() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        writeFile(store + "/profiles/broken.json", "{\"customer_user_id\": ")
        let result = runCLI(["find", "--store", store, "--at", at, "--state", "active", "--json"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("broken.json"))
        #expect(result.stdout.contains("\"trial\""), "the others are still found")
        // Whatever the filter: a damaged file is reported even when the byte prefilter rules it out.
        for filter in [["--state", "grace_period"], ["--state", "billing_retry"], ["--state", "revoked"], ["--product", "nothing.like.this"],
                       ["--attribute", "k=v"], ["--store-name", "stripe"]] {
            let filtered = runCLI(["find", "--store", store, "--at", at] + filter)
            #expect(filtered.exitCode == 4, "\(filter)")
            #expect(filtered.stderr.contains("broken.json"), "\(filter)")
        }
        let summary = runCLI(["summary", "--store", store, "--at", at, "--json"])
        #expect(summary.exitCode == 4)
        #expect(summary.stdout.contains("\"unreadable_profiles\": 1"))
        #expect(summary.stderr.contains("broken.json"))
    }

    /// A grace date written with a fraction and an offset (valid in the store format) is
    /// found by `find --state grace_period`, as `status` and `summary` count it.
    @Test func graceDateWithAnOffsetIsFound() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let path = store + "/profiles/grace-period.json"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let pattern = /"grace_period_expires_at": "[^"]*"/
        #expect(original.contains(pattern))
        // 15:00 UTC, three hours after `at`.
        writeFile(path, original.replacing(pattern, with: #""grace_period_expires_at": "2026-01-15T10:00:00.5-05:00""#))
        let found = runCLI(["find", "--store", store, "--at", at, "--state", "grace_period", "--json"])
        #expect(found.exitCode == 0)
        #expect(found.stdout.contains(#""customer_user_id":"grace-period""#))
    }

    @Test func fannedOutProfilesAreFound() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        try FileManager.default.createDirectory(atPath: store + "/profiles/gr", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: store + "/profiles/grace-period.json", toPath: store + "/profiles/gr/grace-period.json")
        let result = runCLI(["find", "--store", store, "--at", at, "--state", "grace_period", "--json"])
        #expect(result.stdout.contains("\"customer_user_id\":\"grace-period\""))
    }
}
