import Foundation
import Testing
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// Git's index after the tool's commits in a store past the old 4 MB limit, above which the
/// index used to be left stale: `git status` prints nothing after any
/// command, with no hook run first.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct TeamIndexAtScaleTests {
    /// 20,000 profiles: 40,000 index entries, about 5 MB of index.
    static let profiles = 20_000
    /// The largest index the tool used to bring current after each commit.
    static let oldLimit = 4 << 20

    @Test func gitStatusIsCleanAfterGrantRevokeImportAndSyncPastTheOldLimit() throws {
        let team = TeamFixture()
        _ = try Binary.runProgram("/usr/bin/env", ["git", "init", "--quiet", "--bare", team.remote], environment: team.environment)
        try #require(try team.run(["init", "--entitlement", "premium"], in: "s0").exitCode == 0)
        try #require(try team.run(["migrate", "--layout", "fanout"], in: "s0").exitCode == 0)
        try seed(team.store("s0"), count: Self.profiles)
        try #require(try team.run(["init", "--git", "--actor", "Setup <setup@example.com>"], in: "s0").exitCode == 0)
        #expect(try sharedIndexSize(in: "s0", of: team) > Self.oldLimit, "the store crosses the old limit")
        try team.identify("s0")
        try team.git(["remote", "add", "origin", team.remote], in: "s0")
        try #require(try team.run(["sync"], in: "s0").exitCode == 0)
        try #require(try Binary.run(["clone", team.remote, "--store", team.store("s1")], environment: team.environment).exitCode == 0)
        try team.identify("s1")
        #expect(try status("s0", team) == "" && status("s1", team) == "")
        let sharedIndexes = try sharedIndexNames(in: "s0", of: team)

        let steps: [(String, [String], String?)] = [
            ("grant to an existing customer", ["grant", "user-7", "premium", "--duration", "1w", "--actor", "Ana"], nil),
            ("grant to a new customer", ["grant", "new-customer", "premium", "--lifetime", "--actor", "Ana"], nil),
            ("revoke", ["revoke", "user-8", "premium", "--yes", "--reason", "refund", "--actor", "Ana"], nil),
            ("import", ["import", "-", "--update-config", "--actor", "Ana"], revenueCatDocument(user: "user-9", transactionID: "9001")),
            ("bulk grant", ["grant", "--stdin", "premium", "--duration", "1d", "--actor", "Ana", "--quiet"], "user-1\nuser-2\nbrand-new\n"),
        ]
        for (name, arguments, stdin) in steps {
            let result = try team.run(arguments, in: "s0", stdin: stdin)
            #expect(result.exitCode == 0, "\(name): \(result.stderr)")
            #expect(try status("s0", team) == "", "git status after \(name)")
        }
        #expect(try indexSize(in: "s0", of: team) < 1 << 20, "only the split index's small file was rewritten")
        // The cache tree is dropped, not folded into a new shared index by every commit.
        #expect(try sharedIndexNames(in: "s0", of: team) == sharedIndexes, "no shared index written")

        // Both directions of a sync: s1's own commit pushed, then merged with s0's work.
        #expect(try team.run(["grant", "user-10", "premium", "--duration", "2w", "--actor", "Ben"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(try status("s1", team) == "", "git status after sync (push)")
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(try status("s0", team) == "", "git status after sync (merge)")
        let fastForward = try team.run(["sync"], in: "s1")
        #expect(fastForward.exitCode == 0, "\(fastForward.stderr)")
        #expect(try status("s1", team) == "", "git status after sync (fast-forward)")
        #expect(try team.run(["verify", "--quiet"], in: "s1").exitCode == 0)
        // The index git reads holds exactly HEAD's files with their current contents.
        #expect(try team.git(["diff-index", "--cached", "HEAD"], in: "s0").stdout == "")
        #expect(try team.git(["diff-files"], in: "s0").stdout == "")
    }

    /// Writes `count` profiles and their index entries directly, as the tool lays them out
    /// (fan-out, derived profile ids, fixed dates): a `grant --stdin` of them took minutes.
    private func seed(_ root: String, count: Int) throws {
        var made: Set<String> = []
        func write(_ text: String, to path: String) throws {
            let folder = (path as NSString).deletingLastPathComponent
            if made.insert(folder).inserted { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        for index in 0..<count {
            let user = "user-\(index)", id = ProfileIdentity.derived(for: user)
            let profile = """
                {
                  "created_at": "2026-01-01T00:00:00Z",
                  "custom_attributes": {},
                  "customer_user_id": "\(user)",
                  "profile_id": "\(id)",
                  "renewal_info": {},
                  "schema_version": 1,
                  "transactions": [
                    {
                      "entitlement": "premium",
                      "expires_at": "2030-01-01T00:00:00Z",
                      "granted_at": "2026-01-01T00:00:00Z",
                      "granted_by": "Seed",
                      "purchased_at": "2026-01-01T00:00:00Z",
                      "store": "manual",
                      "transaction_id": "manual-seed-\(index)",
                      "type": "manual_grant"
                    }
                  ]
                }

                """
            try write(profile, to: root + "/profiles/" + ProfileLayout.fanout.relativePath(forName: ProfileFileName.name(for: user), suffix: ".json"))
            try write(user, to: root + "/index/profile-id/" + ProfileLayout.fanout.relativePath(forName: ProfileFileName.name(for: id)))
        }
    }

    /// `git status --porcelain` as a person would type it: no hook, no refresh first.
    private func status(_ name: String, _ team: TeamFixture) throws -> String {
        try team.git(["status", "--porcelain"], in: name).stdout
    }

    private func sharedIndexSize(in name: String, of team: TeamFixture) throws -> Int {
        let git = team.store(name) + "/.git"
        let shared = try FileManager.default.contentsOfDirectory(atPath: git).filter { $0.hasPrefix("sharedindex.") }
        return try shared.map { try (FileManager.default.attributesOfItem(atPath: git + "/" + $0)[.size] as? Int) ?? 0 }.max() ?? 0
    }

    private func sharedIndexNames(in name: String, of team: TeamFixture) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: team.store(name) + "/.git").filter { $0.hasPrefix("sharedindex.") })
    }

    private func indexSize(in name: String, of team: TeamFixture) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: team.store(name) + "/.git/index")[.size] as? Int) ?? 0
    }
}
