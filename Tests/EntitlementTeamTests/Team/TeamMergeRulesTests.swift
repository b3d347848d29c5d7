import Foundation
import Testing
import EntitlementTestSupport

/// Merge reproductions with real clones, a bare remote and the built binary.
/// Times are the tool's own; every check compares with what the store recorded,
/// never with the test's clock.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct TeamMergeRulesTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func transaction(_ result: CLIResult) throws -> [String: Any] {
        try #require(try json(result.stdout)["transaction"] as? [String: Any])
    }

    @Test func aDuplicateKeyGivesTheKeptGrantsExpiryAndHistorySaysWhy() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "c", "premium", "--duration", "1w"], in: "s1").exitCode == 0)
        try #require(try team.run(["sync"], in: "s1").exitCode == 0)
        try #require(try team.run(["sync"], in: "s0").exitCode == 0)
        let kept = try Self.transaction(try team.run(["grant", "c", "premium", "--duration", "1m", "--idempotency-key", "OUT-1", "--json"], in: "s0"))
        let duplicate = try Self.transaction(try team.run(["grant", "c", "premium", "--duration", "1m", "--idempotency-key", "OUT-1", "--json"], in: "s1"))
        #expect(duplicate["starts_at"] != nil, "stacked after s1's first grant")
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let sync = try team.run(["sync", "--json"], in: "s1")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        let reviews = try #require(try Self.json(sync.stdout)["review"] as? [[String: Any]])
        #expect(reviews.contains { $0["kind"] as? String == "duplicate_voided" && $0["customer_user_id"] as? String == "c" })
        let check = try Self.json(try team.run(["check", "c", "premium", "--json"], in: "s1").stdout)
        #expect(check["expires_at"] as? String == kept["expires_at"] as? String, "the kept grant's end, not the duplicate's")
        let history = try team.run(["history", "c"], in: "s1")
        #expect(history.stdout.contains("duplicate of \(kept["transaction_id"] as! String)"))
        #expect(!history.stdout.contains("! "), "no actor/author mismatch: \(history.stdout)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(try team.run(["history", "c", "--json"], in: "s1").stdout.utf8)) as? [[String: Any]])
        let void = try #require(events.first { $0["event"] as? String == "revocation" })
        #expect(void["duplicate_of"] as? String == kept["transaction_id"] as? String)
        #expect(void["actor"] as? String == "Agent s1 <s1@example.com>", "the person who synced")
        #expect(void["actor_matches_author"] is NSNull)
        #expect(try team.run(["verify"], in: "s1").exitCode == 0)
    }

    @Test func aRevokeAgainstAConcurrentExtensionIsReviewedAndLeavesTheExtension() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1m"], in: "s0").exitCode == 0)
        try #require(try team.run(["sync"], in: "s0").exitCode == 0)
        try #require(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["revoke", "alice", "premium", "--yes", "--reason", "fraud"], in: "s0").exitCode == 0)
        let extension_ = try Self.transaction(try team.run(["grant", "alice", "premium", "--duration", "2w", "--json"], in: "s1"))
        #expect(extension_["stacked_on"] != nil)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        // Ben pulls with plain git: the driver says what to review on standard error.
        let pull = try team.git(["pull", "--no-rebase", "--quiet", "origin", "main"], in: "s1")
        #expect(pull.exitCode == 0, "\(pull.stderr)")
        #expect(pull.stderr.contains("review: alice (premium): grant \(extension_["transaction_id"] as! String) was stacked on"), "\(pull.stderr)")
        let check = try team.run(["check", "alice", "premium"], in: "s1")
        #expect(check.exitCode == 0, "active from the revocation on: \(check.stdout)")
        // Ana's sync merges Ben's merge and says nothing more (the move is made once).
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 0 && !sync.stdout.contains("review:"), "\(sync.stdout)")
        #expect(team.snapshot("s0") == team.snapshot("s1"))
    }

    @Test func aMergeNeverUndoesARestore() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1m"], in: "s0").exitCode == 0)
        #expect(try team.run(["revoke", "alice", "premium", "--yes", "--reason", "oops"], in: "s0").exitCode == 0)
        try #require(try team.run(["sync"], in: "s0").exitCode == 0)
        try #require(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["restore", "alice", "premium", "--reason", "undo"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "alice", "sports", "--duration", "1w"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        for clone in ["s0", "s1"] {
            #expect(try team.run(["check", "alice", "premium", "--quiet"], in: clone).exitCode == 0, "restored in \(clone)")
            let events = try #require(try JSONSerialization.jsonObject(with: Data(try team.run(["history", "alice", "--json"], in: clone).stdout.utf8)) as? [[String: Any]])
            #expect(events.filter { $0["event"] as? String == "revocation" }.count == 1)
        }
    }

    @Test func importCommitsNameTheCustomersTheyChanged() throws {
        let team = try TeamFixture.team(of: 1)
        let result = try team.run(["import", "-"], in: "s0", stdin: revenueCatDocument(user: "dora", transactionID: "7001"))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try team.git(["log", "-1", "--format=%s"], in: "s0").stdout == "import 1 document for dora: <stdin>\n")
    }
}

extension TeamMergeRulesTests {
    @Test func theSameNewCustomerOnTwoClonesKeepsOneIDAndVerifiesClean() throws {
        let team = try TeamFixture.team(of: 2)
        let first = try Self.json(try team.run(["grant", "newbie", "premium", "--duration", "1w", "--json"], in: "s0").stdout)
        let second = try Self.json(try team.run(["grant", "newbie", "sports", "--duration", "1w", "--json"], in: "s1").stdout)
        let id = try #require(first["profile_id"] as? String)
        #expect(second["profile_id"] as? String == id, "both clones derive the same id")
        for clone in ["s0", "s1", "s0"] { #expect(try team.run(["sync"], in: clone).exitCode == 0) }
        for clone in ["s0", "s1"] {
            #expect(try team.run(["verify"], in: clone).exitCode == 0)
            #expect(try team.run(["status", "--profile-id", id], in: clone).exitCode == 0)
        }
    }
}
