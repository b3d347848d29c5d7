import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// grant and revoke through the CLI, in-process, with a fixed clock.
@Suite(.tags(.cli))
struct GrantRevokeTests {
    let directory = TemporaryDirectory()

    func json(_ text: String) throws -> JSONObject { try #require(try JSONParser.parse(text).objectValue) }

    @Test func grantCreatesAProfileAndRecordsTheAudit() throws {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["grant", "newcomer", "premium", "--duration", "1m", "--reason", "Beta tester", "--actor", "dana", "--store", store, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let object = try json(result.stdout)
        #expect(object["changed"] == .bool(true))
        #expect(object["created_profile"] == .bool(true))
        let transaction = try #require(object["transaction"]?.objectValue)
        #expect(transaction["granted_by"] == .string("dana"))
        #expect(transaction["reason"] == .string("Beta tester"))
        #expect(transaction["granted_at"] == .string("2026-01-15T12:00:00Z"))
        #expect(transaction["expires_at"] == .string("2026-02-15T12:00:00Z"))
        #expect(object["access_level"]?.objectValue?["state"] == .string("active"))
        let history = runCLI(["history", "newcomer", "--store", store, "--json"])
        let events = try #require({ if case .array(let items) = try JSONParser.parse(history.stdout) { return items } else { return nil } }())
        #expect(events.count == 1)
        #expect(events[0].objectValue?["actor"] == .string("dana"))
        #expect(events[0].objectValue?["event"] == .string("grant"))
    }

    @Test func actorDefaultsToEnvironmentThenLoginName() throws {
        let store = directory.copyOfDemoStore()
        let fromEnvironment = runCLI(["grant", "u1", "premium", "--duration", "7d", "--store", store, "--json"], environment: ["ENTITLEMENT_ACTOR": "ci-bot"])
        #expect(try json(fromEnvironment.stdout)["transaction"]?.objectValue?["granted_by"] == .string("ci-bot"))
        let fromLogin = runCLI(["grant", "u2", "premium", "--duration", "7d", "--store", store, "--json"], loginName: "alex")
        #expect(try json(fromLogin.stdout)["transaction"]?.objectValue?["granted_by"] == .string("alex"))
    }

    @Test func durationGrantExtendsTheLatestActiveGrant() throws {
        let store = directory.copyOfDemoStore()
        // manual-active has a grant until 2026-02-10T08:00:00Z.
        let result = runCLI(["grant", "manual-active", "premium", "--duration", "7d", "--store", store, "--json"])
        let object = try json(result.stdout)
        let transaction = try #require(object["transaction"]?.objectValue)
        #expect(transaction["starts_at"] == .string("2026-02-10T08:00:00Z"))
        #expect(transaction["expires_at"] == .string("2026-02-17T08:00:00Z"))
        #expect(object["access_level"]?.objectValue?["expires_at"] == .string("2026-02-17T08:00:00Z"))
        let until = runCLI(["grant", "manual-active", "premium", "--until", "2026-01-20", "--store", store, "--json"])
        #expect(try json(until.stdout)["transaction"]?.objectValue?["expires_at"] == .string("2026-01-20T00:00:00Z"))
    }

    @Test func idempotencyKeyMakesRetriesSafe() throws {
        let store = directory.copyOfDemoStore()
        let arguments = ["grant", "retry-user", "premium", "--duration", "1m", "--idempotency-key", "K-1", "--store", store, "--json"]
        #expect(try json(runCLI(arguments).stdout)["changed"] == .bool(true))
        let second = runCLI(arguments)
        #expect(second.exitCode == 0)
        #expect(try json(second.stdout)["changed"] == .bool(false))
        let text = runCLI(Array(arguments.dropLast()))
        #expect(text.stdout.hasPrefix("No change: idempotency key 'K-1'"))
        let other = runCLI(["grant", "retry-user", "sports", "--duration", "1m", "--idempotency-key", "K-1", "--store", store])
        #expect(other.exitCode == 2)
        #expect(other.stderr.contains("already used"))
        let history = try JSONParser.parse(runCLI(["history", "retry-user", "--store", store, "--json"]).stdout)
        guard case .array(let events) = history else { Issue.record("not an array"); return }
        #expect(events.count == 1)
    }

    /// One rule for grant, revoke, history --entitlement and check --strict: exit 3 (not found).
    @Test func unknownEntitlementIsNotFoundWithASuggestion() {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["grant", "u", "premuim", "--duration", "1m", "--store", store])
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasPrefix("Error: entitlement 'premuim' is not in the product configuration\n"))
        #expect(result.stderr.contains("Did you mean 'premium'?"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/u.json"))
    }

    @Test func dryRunWritesNothing() throws {
        let store = directory.copyOfDemoStore()
        let before = readFile(store + "/profiles/manual-active.json")
        let result = runCLI(["grant", "manual-active", "premium", "--lifetime", "--dry-run", "--store", store, "--json"])
        #expect(try json(result.stdout)["dry_run"] == .bool(true))
        #expect(readFile(store + "/profiles/manual-active.json") == before)
        let revoke = runCLI(["revoke", "--yes", "manual-active", "premium", "--dry-run", "--store", store])
        #expect(revoke.stdout.hasPrefix("Dry run: would revoke 1 transaction"))
        #expect(readFile(store + "/profiles/manual-active.json") == before)
    }

    @Test func scheduledGrantShowsAsScheduled() throws {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["grant", "later", "premium", "--duration", "1w", "--starts", "2026-02-01", "--store", store, "--json"])
        #expect(try json(result.stdout)["access_level"]?.objectValue?["state"] == .string("scheduled"))
        let past = runCLI(["grant", "later", "premium", "--duration", "1w", "--starts", "2026-01-01", "--store", store])
        #expect(past.exitCode == 2)
    }

    @Test func revokeRemovesManualAccessAndKeepsHistory() throws {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["revoke", "--yes", "manual-active", "premium", "--reason", "Granted by mistake", "--actor", "sam", "--store", store, "--json"])
        #expect(result.exitCode == 0)
        let object = try json(result.stdout)
        #expect(object["changed"] == .bool(true))
        #expect(object["access_level"]?.objectValue?["state"] == .string("revoked"))
        let again = runCLI(["revoke", "--yes", "manual-active", "premium", "--store", store, "--json"])
        #expect(try json(again.stdout)["changed"] == .bool(false))
        let history = runCLI(["history", "manual-active", "--store", store])
        #expect(history.stdout.contains("revocation"))
        #expect(history.stdout.contains("sam"))
        #expect(history.stdout.contains("Granted by mistake"))
    }

    @Test func revokeSaysWhenAccessComesFromTheStore() throws {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["revoke", "--yes", "active-renewing", "premium", "--store", store])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Nothing changed"))
        #expect(result.stdout.contains("stays active: it comes from a store purchase (app_store, com.example.premium.monthly)"))
        let included = runCLI(["revoke", "--yes", "active-renewing", "premium", "--include-store", "--reason", "Refund by support", "--store", store, "--json"])
        #expect(try json(included.stdout)["access_level"]?.objectValue?["state"] == .string("revoked"))
    }

    @Test func revokeOfUnknownUserIsNotFound() {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["revoke", "--yes", "nobody", "premium", "--store", store])
        #expect(result.exitCode == 3)
        let transaction = runCLI(["revoke", "--yes", "manual-active", "premium", "--transaction", "nope", "--store", store])
        #expect(transaction.exitCode == 3)
    }

    @Test(arguments: [
        ("{ not json", "invalid JSON at line 1, column 3"),
        (#"{"schema_version": 2, "customer_user_id": "victim"}"#, "schema_version 2 is newer"),
        (#"{"customer_user_id": "someone-else"}"#, "misplaced profile"),
        (#"{"customer_user_id": "victim", "transactions": [{"transaction_id": "1", "type": "manual_grant", "entitlement": "premium", "purchased_at": 5}]}"#,
         "transactions[0].purchased_at: expected an ISO 8601 date string"),
    ])
    func unreadableProfilesAreReportedAndNeverRewritten(content: String, message: String) {
        let store = directory.copyOfDemoStore()
        let path = store + "/profiles/victim.json"
        writeFile(path, content)
        for arguments in [["grant", "victim", "premium", "--duration", "1m"], ["revoke", "--yes", "victim", "premium"], ["status", "victim"], ["check", "victim"]] {
            let result = runCLI(arguments + ["--store", store])
            #expect(result.exitCode == 4, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: \(path): "), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(readFile(path) == content)
        }
        #expect(runCLI(["check", "lifetime", "--store", store]).exitCode == 0)  // other profiles stay readable
    }

    @Test func unknownFieldsAndValuesSurviveAGrant() throws {
        let store = directory.store()
        let original = #"""
            {"customer_user_id": "keeper", "x_profile_note": {"nested": [1, 2.50, "three"]},
             "transactions": [{"transaction_id": "t1", "product_id": "com.example.monthly", "store": "huawei_app_gallery",
               "type": "subscription_gifted", "purchased_at": "2025-01-01T00:00:00.123456+0000", "expires_at": "2027-01-01",
               "price": 9.990, "x_raw": {"a": true}}],
             "renewal_info": {"t1": {"will_renew": true, "x_flag": "kept"}}}
            """#
        writeFile(store + "/profiles/keeper.json", original)
        #expect(runCLI(["grant", "keeper", "premium", "--duration", "1d", "--store", store]).exitCode == 0)
        let rewritten = try #require(try JSONParser.parse(readFile(store + "/profiles/keeper.json") ?? "").objectValue)
        #expect(rewritten["x_profile_note"] == (try JSONParser.parse(#"{"nested": [1, 2.50, "three"]}"#)))
        guard case .array(let transactions)? = rewritten["transactions"] else { Issue.record("no transactions"); return }
        let first = try #require(transactions.first?.objectValue)
        #expect(first["store"] == .string("huawei_app_gallery"))
        #expect(first["type"] == .string("subscription_gifted"))
        #expect(first["purchased_at"] == .string("2025-01-01T00:00:00.123456+0000"))
        #expect(first["price"] == .number("9.990"))
        #expect(first["x_raw"] == .object(JSONObject([("a", .bool(true))])))
        #expect(rewritten["renewal_info"]?.objectValue?["t1"]?.objectValue?["x_flag"] == .string("kept"))
        #expect(transactions.count == 2)
    }

    @Test func busyStoreExitsFiveAfterTheTimeout() throws {
        let store = directory.copyOfDemoStore()
        let fd = open(store + "/.lock", O_RDWR | O_CREAT, 0o644)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        let result = runCLI(["grant", "u", "premium", "--duration", "1d", "--lock-timeout", "0.2", "--store", store])
        #expect(result.exitCode == 5)
        #expect(result.stderr.hasPrefix("Error: store is busy"))
        let fromEnvironment = runCLI(["revoke", "--yes", "manual-active", "premium", "--store", store], environment: ["ENTITLEMENT_LOCK_TIMEOUT": "0.1"])
        #expect(fromEnvironment.exitCode == 5)
    }
}
