import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Under --json every error is one JSON object on standard error, in the one documented shape.
@Suite(.tags(.cli))
struct JSONErrorTests {
    static let failing: [[String]] = [
        ["status", "nobody", "--store", demoStorePath, "--json"],
        ["--json", "check", "nobody", "--strict", "--store", demoStorePath],
        ["check", "alice", "--jsn", "--json"],
        ["check", "alice", "--at", "noon", "--json"],
        ["--json", "frobnicate"],
        ["history", "alice", "--store", "/nonexistent/store", "--output", "jsonl"],
        ["grant", "alice", "premum", "--lifetime", "--store", demoStorePath, "--json", "--dry-run"],
        ["revoke", "lifetime", "premium", "--transaction", "nope", "--store", demoStorePath, "--json", "--dry-run"],
        ["path", "", "--json"],
        ["--output=json", "status"],
    ]

    @Test(arguments: failing)
    func everyErrorIsOneJSONObject(_ arguments: [String]) throws {
        let result = runCLI(arguments)
        #expect(result.exitCode >= 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        try #require(lines.count == 1, "\(result.stderr)")
        guard case .object(let root) = try JSONParser.parse(Array(lines[0].utf8)), case .object(let error) = root["error"] else {
            Issue.record("not an error object: \(result.stderr)")
            return
        }
        #expect(root.keys == ["error"])
        #expect(Set(error.keys) == ["code", "message", "hint", "exit_code"])
        #expect(error["exit_code"] == .int(Int(result.exitCode)))
        if case .string(let code) = error["code"] { #expect(!code.isEmpty && code.allSatisfy { $0.isLowercase || $0 == "_" }) } else { Issue.record("no code") }
    }

    @Test func codesNameTheError() throws {
        #expect(runCLI(["status", "nobody", "--store", demoStorePath, "--json"]).stderr.contains(#""code":"unknown_user""#))
        #expect(runCLI(["status", "x", "--store", "/nonexistent", "--json"]).stderr.contains(#""code":"store_not_found""#))
        #expect(runCLI(["grant", "a", "premum", "--lifetime", "--store", demoStorePath, "--json", "--dry-run"]).stderr.contains(#""code":"unknown_entitlement""#))
        #expect(runCLI(["check", "--jsn", "--json"]).stderr.contains(#""code":"usage""#))
    }

    @Test func withoutJSONErrorsStayText() {
        let result = runCLI(["status", "nobody", "--store", demoStorePath])
        #expect(result.stderr.hasPrefix("Error: no profile for user 'nobody'\n"))
        // A --json after `--` is data, not a request for JSON.
        #expect(runCLI(["check", "--store", demoStorePath, "--", "--json"]).stderr.isEmpty)
    }

    @Test func checkStdinLinesUseTheSameErrorShape() throws {
        let result = runCLI(["check", "--stdin", "--strict", "--store", demoStorePath], stdin: "nobody\n")
        #expect(result.exitCode == 3)
        guard case .object(let line) = try JSONParser.parse(Array(result.stdout.utf8)), case .object(let error) = line["error"] else {
            Issue.record("no error object: \(result.stdout)")
            return
        }
        #expect(JSONWriter().string(.object(error)) == JSONWriter().string(.object(EntitlementError.unknownUser("nobody").json)))
    }
}
