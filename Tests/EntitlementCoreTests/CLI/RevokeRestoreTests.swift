import Foundation
import Testing
@testable import EntitlementCore

/// The guard in front of `revoke`, and `restore`.
struct RevokeRestoreTests {
    @Test func withoutATerminalRevokeRefusesAndShowsWhatItWouldDo() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let before = readFile(store + "/profiles/manual-active.json")
        let result = runCLI(["revoke", "manual-active", "premium", "--reason", "oops", "--store", store])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("Will revoke 1 transaction of premium from 'manual-active':"))
        #expect(result.stderr.contains("manual-02ee5c"))
        #expect(result.stderr.contains("Access that ends: premium goes from active to revoked."))
        #expect(result.stderr.contains("Add --yes (-y)"))
        #expect(readFile(store + "/profiles/manual-active.json") == before)
    }

    @Test func onATerminalItAsksAndHonoursTheAnswer() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let before = readFile(store + "/profiles/manual-active.json")
        let declined = runCLI(["revoke", "manual-active", "premium", "--store", store], stdin: "n\n", terminal: true)
        #expect(declined.exitCode == 1)
        #expect(declined.stderr.contains("Revoke it? [y/N] "))
        #expect(declined.stderr.contains("Nothing revoked."))
        #expect(readFile(store + "/profiles/manual-active.json") == before)
        let accepted = runCLI(["revoke", "manual-active", "premium", "--store", store], stdin: "y\n", terminal: true)
        #expect(accepted.exitCode == 0)
        #expect(accepted.stdout.contains("Revoked 1 transaction: manual-02ee5c."))
    }

    @Test func dryRunAndYesNeverAsk() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let dry = runCLI(["revoke", "manual-active", "premium", "--dry-run", "--store", store], terminal: true)
        #expect(dry.exitCode == 0)
        #expect(!dry.stderr.contains("[y/N]"))
        let yes = runCLI(["revoke", "-y", "manual-active", "premium", "--store", store])
        #expect(yes.exitCode == 0)
        #expect(yes.stderr.isEmpty)
    }

    @Test func restoreUndoesARevocationAndHistoryKeepsBoth() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let revokedAt = ISODate.parse("2026-01-16T09:00:00Z")!, restoredAt = ISODate.parse("2026-01-17T09:00:00Z")!
        #expect(runCLI(["revoke", "--yes", "manual-active", "premium", "--reason", "wrong customer", "--actor", "sam", "--store", store],
                       now: revokedAt).exitCode == 0)
        let restore = runCLI(["restore", "manual-active", "premium", "--reason", "it was the right one", "--actor", "dana",
                              "--store", store, "--json"], now: restoredAt)
        #expect(restore.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(restore.stdout.utf8)) as? [String: Any])
        #expect(object["changed"] as? Bool == true)
        #expect((object["access_level"] as? [String: Any])?["state"] as? String == "active")
        let history = runCLI(["history", "manual-active", "--store", store]).stdout
        #expect(history.contains("revocation  manual-02ee5c"))
        #expect(history.contains("restore     manual-02ee5c"))
        #expect(history.contains("sam") && history.contains("wrong customer") && history.contains("dana") && history.contains("it was the right one"))
        // As of a time between the two, the grant was revoked; before and after, active.
        let between = runCLI(["check", "manual-active", "--store", store, "--at", "2026-01-16T12:00:00Z"])
        #expect(between.exitCode == 1)
        #expect(runCLI(["check", "manual-active", "--store", store, "--at", "2026-01-18T00:00:00Z"]).exitCode == 0)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
        let again = runCLI(["restore", "manual-active", "premium", "--reason", "twice", "--store", store], now: restoredAt)
        #expect(again.exitCode == 0)
        #expect(again.stdout.hasPrefix("Nothing changed"))
    }

    @Test func aStoreRefundCannotBeRestored() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let result = runCLI(["restore", "refunded", "premium", "--reason", "customer asked", "--store", store])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("was revoked by its store (app_store): a refund in the vendor's data cannot be restored."))
        #expect(runCLI(["restore", "refunded", "premium", "--store", store]).exitCode == 2, "--reason is required")
        #expect(runCLI(["restore", "nobody", "premium", "--reason", "x", "--store", store]).exitCode == 3)
    }

    @Test func historyUntilKeepsEarlierEvents() {
        let all = runCLI(["history", "refunded", "--store", demoStorePath, "--json"]).stdout
        let early = runCLI(["history", "refunded", "--store", demoStorePath, "--until", "2026-01-01", "--json"]).stdout
        #expect(all.contains("\"revocation\""))
        #expect(!early.contains("\"revocation\""))
        #expect(runCLI(["history", "refunded", "--store", demoStorePath, "--since", "2026-01-02", "--until", "2026-01-01"]).exitCode == 2)
    }
}
