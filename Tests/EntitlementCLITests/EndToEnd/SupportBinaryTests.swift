import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// find, summary, verify, bulk grant and the revoke guard through the built binary, as scripts use them.
@Suite(.tags(.endToEnd))
struct SupportBinaryTests {
    let at = ["--at", "2026-01-15T12:00:00Z"]

    @Test func findAndSummaryMatchTheGoldenFiles() throws {
        try #require(Binary.exists, "build the binary first (make test does)")
        let find = try Binary.run(["find", "--store", demoStorePath, "--state", "grace_period,billing_retry,revoked", "--json"] + at)
        #expect(find.exitCode == 0)
        #expect(find.stderr.isEmpty, "no progress bar in a pipe")
        expectGolden(find.stdout, named: "find-trouble.jsonl")
        let summary = try Binary.run(["summary", "--store", demoStorePath, "--json"] + at)
        expectGolden(summary.stdout, named: "summary-demo.json")
        let none = try Binary.run(["find", "--store", demoStorePath, "--state", "revoked", "--entitlement", "sports", "-q"] + at)
        #expect(none.exitCode == 1 && none.stdout.isEmpty)
    }

    @Test func verifyExitCodes() throws {
        try #require(Binary.exists)
        #expect(try Binary.run(["verify", "--store", demoStorePath]).exitCode == 0)
        let directory = TemporaryDirectory()
        let store = VerifyTests.brokenStore(in: directory)
        let broken = try Binary.run(["verify", "--store", store, "--json"])
        #expect(broken.exitCode == 4)
        expectGolden(broken.stdout.replacingOccurrences(of: store, with: "STORE"), named: "verify-broken.json")
    }

    @Test func bulkGrantFromAPipeAndTheRevokeGuard() throws {
        try #require(Binary.exists)
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let grant = try Binary.run(["grant", "--stdin", "premium", "--lifetime", "--reason", "beta", "--store", store, "--json"],
                                   stdin: "tester-1\ntester-2\n")
        #expect(grant.exitCode == 0)
        #expect(grant.stdout.split(separator: "\n").count == 2)
        let refused = try Binary.run(["revoke", "tester-1", "premium", "--reason", "oops", "--store", store])
        #expect(refused.exitCode == 2)
        #expect(refused.stderr.contains("Will revoke 1 transaction of premium from 'tester-1':"))
        #expect(refused.stderr.contains("--yes"))
        let revoked = try Binary.run(["revoke", "tester-1", "premium", "--reason", "oops", "--yes", "--store", store])
        #expect(revoked.exitCode == 0)
        let restored = try Binary.run(["restore", "tester-1", "premium", "--reason", "wrong one", "--store", store])
        #expect(restored.exitCode == 0)
        #expect(try Binary.run(["check", "tester-1", "--store", store, "-q"]).exitCode == 0)
        #expect(try Binary.run(["verify", "--store", store]).exitCode == 0)
    }
}
