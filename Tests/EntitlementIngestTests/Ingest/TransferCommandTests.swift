import Foundation
import Testing
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `entitlement transfer FROM TO`: what moves, what stays, the audit on both sides, the
/// confirmation as `revoke` asks it, and the exit codes.
@Suite(.tags(.cli))
struct TransferCommandTests {
    typealias F = IngestFixtures

    /// alice with two store purchases (t1, t2, ingested from RevenueCat) and a manual grant.
    struct Fixture {
        let directory = TemporaryDirectory()
        let store: String

        init() {
            let (store, secrets) = F.store(in: directory)
            self.store = store
            let bodies = [F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0),
                          F.revenueCat("INITIAL_PURCHASE", id: "e2", at: 1, transaction: "t2", original: "t2", purchasedAt: 1, expiresAt: 31)]
            #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n")).exitCode == 0)
            #expect(runCLI(["grant", "alice", "premium", "--duration", "1y", "--reason", "Beta", "--store", store]).exitCode == 0)
        }

        func run(_ arguments: [String], stdin: String = "", terminal: Bool = false) -> CLIResult {
            runCLI(arguments + ["--store", store], stdin: stdin, terminal: terminal)
        }

        func profile(_ user: String) -> String? { readFile(store + "/profiles/\(user).json") }

        func transactionIDs(_ user: String) throws -> [String] {
            guard let profile = try EntitlementStore(root: store).loadProfile(userID: user) else { return [] }
            return profile.transactions.map { $0.isManualGrant ? "grant" : $0.transactionID }
        }
    }

    @Test func movesEveryStorePurchaseAndLeavesManualGrants() throws {
        let f = Fixture()
        let result = f.run(["transfer", "alice", "bob", "--reason", "Account merge", "--actor", "dana", "--yes"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Moved 2 transactions from 'alice' to 'bob' (new profile created)"), "\(result.stdout)")
        #expect(try f.transactionIDs("alice") == ["grant"])
        #expect(try f.transactionIDs("bob") == ["t1", "t2"])
        let bob = try #require(try EntitlementStore(root: f.store).loadProfile(userID: "bob"))
        #expect(bob.renewalInfo.keys.sorted() == ["t1", "t2"])
        #expect(f.run(["check", "bob", "premium", "--at", "2026-01-10T00:00:00Z"]).exitCode == 0)
        #expect(runCLI(["verify", "--store", f.store]).exitCode == 0)
    }

    @Test func auditedOnBothSidesInHistoryAndLog() throws {
        let f = Fixture()
        #expect(f.run(["transfer", "alice", "bob", "--transaction", "t2", "--reason", "Wrong account", "--actor", "dana", "--yes"]).exitCode == 0)
        let alice = try #require(f.profile("alice")), bob = try #require(f.profile("bob"))
        #expect(alice.contains("\"direction\": \"out\"") && alice.contains("\"to\": \"bob\""))
        #expect(bob.contains("\"direction\": \"in\"") && bob.contains("\"from\": \"alice\""))
        let aliceHistory = f.run(["history", "alice"]).stdout
        #expect(aliceHistory.contains("transfer to bob") && aliceHistory.contains("Wrong account") && aliceHistory.contains("dana"), "\(aliceHistory)")
        let bobHistory = f.run(["history", "bob", "--json"]).stdout
        #expect(bobHistory.contains("\"event\": \"transfer\"") && bobHistory.contains("\"from\": \"alice\""), "\(bobHistory)")
        let log = f.run(["log", "--event", "transfer", "--output", "jsonl"]).stdout
        #expect(log.split(separator: "\n").count == 2, "\(log)")
        #expect(log.contains("\"direction\":\"out\"") && log.contains("\"direction\":\"in\""), "\(log)")
    }

    @Test func namedTransactionsOnly() throws {
        let f = Fixture()
        #expect(f.run(["transfer", "alice", "bob", "--transaction", "t2", "--reason", "r", "--yes"]).exitCode == 0)
        #expect(try f.transactionIDs("alice") == ["t1", "grant"])
        #expect(try f.transactionIDs("bob") == ["t2"])
    }

    @Test func intoAnExistingProfileKeepsItsOwnPurchases() throws {
        let f = Fixture()
        #expect(f.run(["grant", "bob", "premium", "--duration", "1w", "--reason", "trial"]).exitCode == 0)
        let result = f.run(["transfer", "alice", "bob", "--transaction", "t1", "--reason", "r", "--yes", "--json"])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["changed"] as? Bool == true && object["created_profile"] as? Bool == false && object["dry_run"] as? Bool == false)
        #expect(object["transactions"] as? [String] == ["t1"] && object["from"] as? String == "alice" && object["to"] as? String == "bob")
        #expect(try f.transactionIDs("bob").sorted() == ["grant", "t1"])
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var exitCode: Int32
        var message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "unknown FROM is 3", arguments: ["transfer", "nobody", "bob", "--reason", "r", "--yes"], exitCode: 3, message: "no profile for user 'nobody'"),
        Refusal(name: "unknown transaction is 3", arguments: ["transfer", "alice", "bob", "--transaction", "t9", "--reason", "r", "--yes"], exitCode: 3,
                message: "no transaction 't9'"),
        Refusal(name: "to itself is 2", arguments: ["transfer", "alice", "alice", "--reason", "r", "--yes"], exitCode: 2, message: "to itself"),
        Refusal(name: "no reason is 2", arguments: ["transfer", "alice", "bob", "--yes"], exitCode: 2, message: "needs --reason"),
        Refusal(name: "a TO that cannot be a user id is 2", arguments: ["transfer", "alice", "bad\u{7}id", "--reason", "r", "--yes"], exitCode: 2, message: "control character"),
        Refusal(name: "no terminal and no --yes is 2", arguments: ["transfer", "alice", "bob", "--reason", "r"], exitCode: 2, message: "no terminal to ask on"),
    ]

    @Test(arguments: refusals)
    func refusedChangesNothing(_ refusal: Refusal) throws {
        let f = Fixture()
        let before = f.profile("alice")
        let result = f.run(refusal.arguments)
        #expect(result.exitCode == refusal.exitCode, "\(result.stderr)")
        #expect(result.stderr.contains(refusal.message), "\(result.stderr)")
        #expect(f.profile("alice") == before)
        #expect(f.profile("bob") == nil)
    }

    @Test func withoutATerminalThePreviewIsShownFirst() {
        let f = Fixture()
        let result = f.run(["transfer", "alice", "bob", "--reason", "r"])
        #expect(result.stderr.contains("Will move 2 transactions from 'alice' to 'bob' (a new profile):"))
        #expect(result.stderr.contains("t1") && result.stderr.contains("--yes"))
    }

    @Test func onATerminalNoMeansNothingAndExit1() {
        let f = Fixture()
        let before = f.profile("alice")
        let result = f.run(["transfer", "alice", "bob", "--reason", "r"], stdin: "n\n", terminal: true)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("Transfer them? [y/N]") && result.stderr.contains("Nothing transferred."))
        #expect(f.profile("alice") == before && f.profile("bob") == nil)
    }

    @Test func onATerminalYesMoves() throws {
        let f = Fixture()
        let result = f.run(["transfer", "alice", "bob", "--transaction", "t1", "--reason", "r"], stdin: "y\n", terminal: true)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try f.transactionIDs("bob") == ["t1"])
    }

    @Test func dryRunWritesNothingAndNeverAsks() throws {
        let f = Fixture()
        let before = f.profile("alice")
        let result = f.run(["transfer", "alice", "bob", "--reason", "r", "--dry-run"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Dry run: would move 2 transactions"))
        #expect(f.profile("alice") == before && f.profile("bob") == nil)
    }

    @Test func nothingToMoveIsNoChange() throws {
        let f = Fixture()
        #expect(f.run(["transfer", "alice", "bob", "--reason", "r", "--yes"]).exitCode == 0)
        let again = f.run(["transfer", "alice", "bob", "--reason", "r", "--yes"])
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("Nothing changed: 'alice' has no store purchases to transfer."), "\(again.stdout)")
        #expect(try #require(f.profile("alice")).components(separatedBy: "\"direction\"").count == 2)  // one entry, not two
    }

    @Test func quietPrintsNothing() {
        let f = Fixture()
        let result = runCLI(["-q", "transfer", "alice", "bob", "--reason", "r", "--yes", "--store", f.store])
        #expect(result.exitCode == 0 && result.stdout.isEmpty)
    }

    /// Every step of the write failed or "crashed": both profiles are before, or both after.
    @Test(arguments: [FaultyFileSystem.Fault.error(EIO), .crash])
    func bothFilesAllOrNothing(_ fault: FaultyFileSystem.Fault) throws {
        let f = Fixture()
        let template = f.store
        let transfer = CustomerTransfer(from: "alice", to: "bob", transactionIDs: [], note: TransferNote(at: demoDate, by: "dana", reason: "r"))
        func copy(_ name: String) throws -> EntitlementStore {
            let path = f.directory.path + "/" + name
            _ = try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: template, toPath: path)
            return EntitlementStore(root: path)
        }
        func state(_ store: EntitlementStore) -> [String?] { ["alice", "bob"].map { readFile(store.root + "/profiles/\($0).json") } }
        let before = state(try copy("before"))
        let counting = FaultyFileSystem()
        var reference = try copy("after")
        reference.fileSystem = counting.fileSystem
        _ = try transfer.apply(in: reference)
        let after = state(reference)
        #expect(after != before && counting.steps > 10)
        for step in 1...counting.steps {
            let faulty = FaultyFileSystem(failAt: step, fault: fault)
            var store = try copy("step")
            store.fileSystem = faulty.fileSystem
            let failed = (try? transfer.apply(in: store)) == nil
            try EntitlementStore(root: store.root).withWriteLock { () throws(EntitlementError) in }  // the next writer recovers
            let now = state(store)
            #expect(now == before || now == after, "step \(step): half-applied")
            if !failed { #expect(now == after, "step \(step): reported success without the change") }
        }
    }
}

/// A transfer to one of the customer's own aliases is a transfer to itself: `transfer` refuses
/// it (exit 2), a RevenueCat TRANSFER event that asks it moves nothing, and no profile is made
/// for the alias (which would split the customer while the alias index still points home).
@Suite(.tags(.cli))
struct TransferToOwnAliasTests {
    typealias F = IngestFixtures

    static func store(_ directory: TemporaryDirectory) -> (store: String, secrets: String) {
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0, extra: ["aliases": ["a-anon"]])
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body).exitCode == 0)
        return (store, secrets)
    }

    @Test func theCommandRefusesIt() throws {
        let directory = TemporaryDirectory()
        let (store, _) = Self.store(directory)
        let result = runCLI(["transfer", "alice", "a-anon", "--reason", "merge", "--actor", "dana", "--yes", "--store", store])
        #expect(result.exitCode == 2, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("own ids"), "\(result.stderr)")
        #expect(try EntitlementStore(root: store).loadProfile(userID: "a-anon") == nil)
        #expect(runCLI(["check", "a-anon", "premium", "--store", store, "--at", F.at(1)]).exitCode == 0)
    }

    @Test func aRevenueCatTransferEventMovesNothing() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.store(directory)
        let transfer = F.revenueCat("TRANSFER", id: "e2", at: 1, user: nil, extra: ["transferred_from": ["alice"], "transferred_to": ["a-anon"]])
        let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: transfer)
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        #expect(try EntitlementStore(root: store).loadProfile(userID: "a-anon") == nil)
        #expect(try EntitlementStore(root: store).loadProfile(userID: "alice")?.transactions.map(\.transactionID) == ["t1"])
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }
}
