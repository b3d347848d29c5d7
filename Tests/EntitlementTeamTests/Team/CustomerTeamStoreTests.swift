import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementStore
import EntitlementTestSupport

/// Transfers and aliases in a team store, through the built binary and real git: a transfer
/// is one commit of both profiles, and an alias resolves in every clone after `sync`, also
/// when two clones gave it to different customers.
@Suite(.tags(.endToEnd), .serialized, .enabled(if: Binary.exists))
struct CustomerTeamStoreTests {
    static let secret = "Bearer team-secret"

    /// A RevenueCat `INITIAL_PURCHASE` body (the project's own, from RevenueCat's documented
    /// fields) on 2026-01-01, expiring 30 days later.
    static func purchase(id: String, user: String, transaction: String, aliases: [String] = []) -> String {
        json(["api_version": "1.0", "event": [
            "type": "INITIAL_PURCHASE", "id": id, "app_user_id": user, "aliases": aliases, "event_timestamp_ms": 1_767_225_600_000,
            "product_id": "monthly", "entitlement_ids": ["premium"], "purchased_at_ms": 1_767_225_600_000, "expiration_at_ms": 1_769_817_600_000,
            "store": "APP_STORE", "environment": "PRODUCTION", "transaction_id": transaction, "original_transaction_id": transaction,
        ] as [String: Any]])
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A secrets file (mode 0600) with RevenueCat's header value, outside every store.
    static func secrets(_ team: TeamFixture) -> String {
        let path = team.directory.path + "/secrets.json"
        writeFile(path, json(["revenuecat": ["authorization": secret]]))
        chmod(path, 0o600)
        return path
    }

    static func ingest(_ bodies: [String], team: TeamFixture, in name: String) throws {
        let result = try team.run(["ingest", "--stdin", "--secrets", secrets(team)], in: name, stdin: bodies.joined(separator: "\n"))
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    @Test func transferIsOneCommitOfBothProfilesAndHistoryNamesIt() throws {
        let team = try TeamFixture.team(of: 1)
        try Self.ingest([Self.purchase(id: "e1", user: "alice", transaction: "t1")], team: team, in: "s0")
        // ingest commits its batch in a team store (it used to leave the files uncommitted).
        #expect(try team.git(["log", "-1", "--format=%an <%ae>|%s"], in: "s0").stdout == "entitlement ingest <ingest@localhost>|ingest revenuecat: 1 event (e1)\n")
        #expect(try team.settledStatus(in: "s0").isEmpty)
        let before = try team.head("s0")
        let transfer = try team.run(["transfer", "alice", "bob", "--reason", "Account merge", "--actor", "Dana <dana@example.com>", "--yes"], in: "s0")
        #expect(transfer.exitCode == 0, "\(transfer.stderr)")
        #expect(try team.git(["rev-list", "--count", "\(before)..HEAD"], in: "s0").stdout == "1\n")
        #expect(try team.git(["log", "-1", "--format=%an <%ae>|%s"], in: "s0").stdout == "Dana <dana@example.com>|transfer alice -> bob: store purchases (Account merge)\n")
        let files = try team.git(["show", "--name-only", "--format=", "HEAD"], in: "s0").stdout.split(separator: "\n")
        #expect(files.filter { $0.hasPrefix("profiles/") }.map { PathName.base(of: String($0)) }.sorted() == ["alice.json", "bob.json"], "\(files)")
        #expect(try team.settledStatus(in: "s0").isEmpty)
        let history = try team.run(["history", "bob", "--output", "tsv"], in: "s0").stdout
        #expect(history.contains("transfer from alice") && history.contains("Dana <dana@example.com>"), "\(history)")
    }

    @Test func aliasesResolveInEveryCloneAndAConflictSettlesAlike() throws {
        let team = try TeamFixture.team(of: 2)
        try Self.ingest([Self.purchase(id: "e1", user: "alice", transaction: "t1", aliases: ["shared-id", "a-only"])], team: team, in: "s0")
        try Self.ingest([Self.purchase(id: "e2", user: "bob", transaction: "t2", aliases: ["shared-id"])], team: team, in: "s1")
        for name in ["s0", "s1", "s0"] {
            let sync = try team.run(["sync"], in: name)
            #expect(sync.exitCode == 0, "\(name): \(sync.stderr)")
        }
        for name in ["s0", "s1"] {
            let store = EntitlementStore(root: team.store(name))
            #expect(readFile(store.aliasIndexPath(for: "shared-id")) == "bob", "\(name)")
            #expect(try team.run(["check", "a-only", "premium", "--at", "2026-01-10T00:00:00Z", "--json"], in: name).stdout.contains("\"customer_user_id\": \"alice\""))
            #expect(try team.run(["status", "shared-id", "--json"], in: name).stdout.contains("\"customer_user_id\": \"bob\""))
            #expect(try team.run(["verify"], in: name).exitCode == 0, "\(name)")
            #expect(try team.settledStatus(in: name).isEmpty, "\(name)")
        }
    }
}
