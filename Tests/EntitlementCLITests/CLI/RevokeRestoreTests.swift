import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The guard in front of `revoke`, and `restore`.
@Suite(.tags(.cli))
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

    @Test func aConfirmedRevocationIsDatedWhenThePersonSaidYes() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let answered = demoDate.addingTimeInterval(42)
        let clock = SteppingClock([demoDate, answered])
        let result = runCLI(["revoke", "manual-active", "premium", "--store", store], stdin: "y\n", terminal: true, clock: { clock.next() })
        #expect(result.exitCode == 0)
        let history = runCLI(["history", "manual-active", "--store", store, "--json"]).stdout
        #expect(history.contains(ISODate.format(answered)))
        #expect(!history.contains(ISODate.format(demoDate)), "not dated when the question was asked")
    }

    @Test func aPlanThatChangedWhileAskingRevokesNothing() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let before = readFile(store + "/profiles/manual-active.json")
        // The grant ends (2026-02-10) while the question waits: nothing is left to revoke.
        let clock = SteppingClock([demoDate, ISODate.parse("2026-03-01T00:00:00Z")!])
        let result = runCLI(["revoke", "manual-active", "premium", "--store", store], stdin: "y\n", terminal: true, clock: { clock.next() })
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("changed while it waited for confirmation: it showed manual-02ee5c, it would now revoke nothing"))
        #expect(readFile(store + "/profiles/manual-active.json") == before)
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

    @Test func betweenARevocationAndItsRestoreCheckShowsThatRevocation() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        #expect(runCLI(["revoke", "--yes", "manual-active", "premium", "--reason", "wrong customer", "--store", store],
                       now: ISODate.parse("2026-01-16T09:00:00Z")!).exitCode == 0)
        #expect(runCLI(["restore", "manual-active", "premium", "--reason", "right one", "--store", store],
                       now: ISODate.parse("2026-01-17T09:00:00Z")!).exitCode == 0)
        let between = runCLI(["check", "manual-active", "premium", "--store", store, "--at", "2026-01-16T12:00:00Z", "--json"])
        #expect(between.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(between.stdout.utf8)) as? [String: Any])
        let level = (object["access_level"] as? [String: Any]) ?? object
        #expect(level["state"] as? String == "revoked")
        #expect(level["revoked_at"] as? String == "2026-01-16T09:00:00Z")
        #expect(level["revocation_reason"] as? String == "wrong customer")
    }

    /// The clock reads sub-microsecond instants; what the store writes must never read back
    /// later than the instant the same run evaluates at.
    @Test func aRestoreIsInEffectInTheRunThatWroteIt() throws {
        var random = SplitMix64(seed: 20_261_122)
        for round in 0..<12 {
            let directory = TemporaryDirectory()
            let store = directory.copyOfDemoStore()
            let base = ISODate.parse("2026-01-16T09:00:00Z")!.timeIntervalSince1970 + Double(round) * 60
            let fraction = Double(random.next() % 1_000_000_000) / 1_000_000_000
            #expect(runCLI(["revoke", "--yes", "manual-active", "premium", "--store", store],
                           now: Date(timeIntervalSince1970: base + fraction)).exitCode == 0)
            let restore = runCLI(["restore", "manual-active", "premium", "--reason", "x", "--store", store, "--json"],
                                 now: Date(timeIntervalSince1970: base + 1 + fraction))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(restore.stdout.utf8)) as? [String: Any])
            #expect((object["access_level"] as? [String: Any])?["state"] as? String == "active", "fraction \(fraction)")
        }
        #expect(CLI.storePrecision(Date(timeIntervalSince1970: 1.0000004)) == ISODate.parse("1970-01-01T00:00:01Z"))
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
