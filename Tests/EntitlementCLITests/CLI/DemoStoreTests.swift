import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Every situation in Fixtures/demo-store, through `check` and `status --json`, at the demo date.
@Suite(.tags(.cli))
struct DemoStoreTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var user: String
        var entitlement: String
        var state: String
        var renewState: String
        var exitCode: Int32
        var testDescription: String { "\(user) \(entitlement) → \(state)" }
    }

    static let cases: [Case] = [
        Case(user: "active-renewing", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "active-canceled", entitlement: "premium", state: "active", renewState: "canceled", exitCode: 0),
        Case(user: "trial", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "intro", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "grace-period", entitlement: "premium", state: "grace_period", renewState: "billing_issue", exitCode: 0),
        Case(user: "billing-retry", entitlement: "premium", state: "billing_retry", renewState: "billing_issue", exitCode: 1),
        Case(user: "expired", entitlement: "premium", state: "expired", renewState: "canceled", exitCode: 1),
        Case(user: "refunded", entitlement: "premium", state: "revoked", renewState: "canceled", exitCode: 1),
        Case(user: "lifetime", entitlement: "premium", state: "active", renewState: "non_renewable", exitCode: 0),
        Case(user: "manual-active", entitlement: "premium", state: "active", renewState: "non_renewable", exitCode: 0),
        Case(user: "manual-expired", entitlement: "premium", state: "expired", renewState: "non_renewable", exitCode: 1),
        Case(user: "manual-scheduled", entitlement: "premium", state: "scheduled", renewState: "non_renewable", exitCode: 1),
        Case(user: "family-shared", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "sandbox-only", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "two-products", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "multi-entitlement", entitlement: "premium", state: "active", renewState: "will_renew", exitCode: 0),
        Case(user: "multi-entitlement", entitlement: "sports", state: "expired", renewState: "unknown", exitCode: 1),
        Case(user: "multi-entitlement", entitlement: "science", state: "billing_retry", renewState: "billing_issue", exitCode: 1),
        Case(user: "no-purchases", entitlement: "premium", state: "never", renewState: "unknown", exitCode: 1),
    ]

    @Test(arguments: cases)
    func checkReportsTheDocumentedState(_ c: Case) throws {
        let result = runCLI(["check", c.user, c.entitlement, "--store", demoStorePath, "--json"])
        #expect(result.exitCode == c.exitCode)
        #expect(result.stderr.isEmpty)
        let object = try #require(try JSONParser.parse(result.stdout).objectValue)
        #expect(object["state"] == .string(c.state))
        #expect(object["renew_state"] == .string(c.renewState))
        #expect(object["is_active"] == .bool(c.exitCode == 0))
        #expect(object["customer_user_id"] == .string(c.user))
        #expect(object["evaluated_at"] == .string("2026-01-15T12:00:00Z"))
        let quiet = runCLI(["check", c.user, c.entitlement, "--store", demoStorePath, "--quiet"])
        #expect(quiet.exitCode == c.exitCode)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test(arguments: cases)
    func statusJSONAgreesWithCheck(_ c: Case) throws {
        let result = runCLI(["status", c.user, "--store", demoStorePath, "--json"])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONParser.parse(result.stdout).objectValue)
        let level = try #require(object["access_levels"]?.objectValue?[c.entitlement]?.objectValue)
        #expect(level["state"] == .string(c.state))
        #expect(level["is_active"] == .bool(c.exitCode == 0))
    }

    @Test func detailsOfSpecialSituations() throws {
        func level(_ user: String, _ entitlement: String = "premium") throws -> JSONObject {
            let result = runCLI(["check", user, entitlement, "--store", demoStorePath, "--json"])
            return try #require(try JSONParser.parse(result.stdout).objectValue)
        }
        #expect(try level("trial")["period_type"] == .string("trial"))
        #expect(try level("intro")["period_type"] == .string("intro"))
        #expect(try level("manual-active")["period_type"] == .string("promotional"))
        #expect(try level("manual-active")["grant_type"] == .string("manual"))
        #expect(try level("family-shared")["grant_type"] == .string("family_sharing"))
        #expect(try level("sandbox-only")["is_sandbox"] == .bool(true))
        #expect(try level("lifetime")["is_lifetime"] == .bool(true))
        #expect(try level("lifetime")["expires_at"] == .null)
        #expect(try level("grace-period")["is_in_grace_period"] == .bool(true))
        #expect(try level("two-products")["product_id"] == .string("com.example.premium.annual"))
        #expect(try level("active-canceled", "sports")["state"] == .string("active"))
        let sandboxExcluded = runCLI(["check", "sandbox-only", "--store", demoStorePath, "--environment", "production"])
        #expect(sandboxExcluded.exitCode == 1)
    }

    @Test func unknownUserIsNotEntitledUnlessStrict() {
        let plain = runCLI(["check", "nobody", "--store", demoStorePath])
        #expect(plain.exitCode == 1)
        #expect(plain.stdout.contains("no profile"))
        let strict = runCLI(["check", "nobody", "--store", demoStorePath, "--strict"])
        #expect(strict.exitCode == 3)
        #expect(strict.stderr.hasPrefix("Error: no profile for user 'nobody'"))
        let unconfigured = runCLI(["check", "lifetime", "premuim", "--store", demoStorePath, "--strict"])
        #expect(unconfigured.exitCode == 3)
        #expect(unconfigured.stderr.contains("Did you mean 'premium'?"))
    }

    @Test func atOverridesTheClock() {
        let before = runCLI(["check", "manual-scheduled", "--store", demoStorePath, "--at", "2026-02-01T00:00:00Z", "-q"])
        #expect(before.exitCode == 0)  // starts exactly now: access
        let justBefore = runCLI(["check", "manual-scheduled", "--store", demoStorePath, "--at", "2026-01-31T23:59:59.999Z", "-q"])
        #expect(justBefore.exitCode == 1)
        let ends = runCLI(["check", "manual-scheduled", "--store", demoStorePath, "--at", "2026-03-01T00:00:00Z", "-q"])
        #expect(ends.exitCode == 1)  // expires exactly now: expired
    }

    @Test func lookupByProfileID() throws {
        let result = runCLI(["status", "--profile-id", "8bb3dd82-9de9-454e-8b33-e8e6110e863b", "--store", demoStorePath, "--json"])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONParser.parse(result.stdout).objectValue)
        #expect(object["customer_user_id"] == .string("multi-entitlement"))
        let missing = runCLI(["status", "--profile-id", "no-such-id", "--store", demoStorePath])
        #expect(missing.exitCode == 3)
    }

    @Test func profileIDLookupScansWhenTheIndexIsMissing() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        try FileManager.default.removeItem(atPath: store + "/index")
        let result = runCLI(["check", "--profile-id", "8bb3dd82-9de9-454e-8b33-e8e6110e863b", "--store", store, "--json"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("\"customer_user_id\": \"multi-entitlement\""))
    }

    @Test func profileIDScanNeverReturnsAMisnamedFile() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        try FileManager.default.removeItem(atPath: store + "/index")
        try FileManager.default.moveItem(atPath: store + "/profiles/multi-entitlement.json", toPath: store + "/profiles/someone-else.json")
        let result = runCLI(["status", "--profile-id", "8bb3dd82-9de9-454e-8b33-e8e6110e863b", "--store", store, "-q"])
        #expect(result.exitCode == 3)
        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode == 4)
        #expect(verify.stdout.contains("someone-else.json") && verify.stdout.contains("does not match customer_user_id"))
    }

    @Test func profileIDScanSkipsBrokenFilesButReportsThemWhenNothingMatches() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        try FileManager.default.removeItem(atPath: store + "/index")
        writeFile(store + "/profiles/aaa-broken.json", "{")
        let found = runCLI(["check", "--profile-id", "8bb3dd82-9de9-454e-8b33-e8e6110e863b", "--store", store, "-q"])
        #expect(found.exitCode == 0)
        let missing = runCLI(["status", "--profile-id", "no-such-id", "--store", store])
        #expect(missing.exitCode == 4)
        #expect(missing.stderr.contains("aaa-broken.json"))
    }
}
