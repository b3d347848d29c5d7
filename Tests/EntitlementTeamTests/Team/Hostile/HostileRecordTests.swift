import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

/// A push may bring ingest records and index entries only as the tool writes them: an
/// unreadable event record (which would make its event pass for applied), a garbage App Store
/// original-transaction entry or alias entry is refused by `sync` like any malformed store file.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct HostileRecordTests {
    static let digest = SHA256.hexDigest(Array("evt-1".utf8))

    static let pushes: [(name: String, path: String, content: String, words: String)] = [
        ("event record", "ingest/events/revenuecat/\(digest.prefix(2))/\(digest).json", "garbage{", "unreadable event record"),
        ("misplaced event record", "ingest/events/revenuecat/\(digest.prefix(2))/\(digest).json",
         #"{"vendor": "revenuecat", "id": "other", "event_time": "2026-03-01T00:00:00Z", "received_at": "2026-03-01T00:00:00Z"}"#,
         "misplaced event record"),
        ("App Store index entry", "index/app-store-original-transaction/\(digest.prefix(2))/\(digest)", "garbage{", "points nowhere"),
        ("App Store index entry bytes", "index/app-store-original-transaction/\(digest.prefix(2))/\(digest)", "\u{0}\u{1}", "unreadable index entry"),
        ("alias entry", "index/alias/anon-1", "garbage{", "points nowhere"),
        ("Google Play purchase", "ingest/googleplay/purchases/\(digest).json", "garbage{", "unreadable Google Play purchase record"),
    ]

    @Test(arguments: pushes.indices) func anUnreadableRecordIsRefused(_ index: Int) throws {
        let push = Self.pushes[index]
        let team = try TeamFixture.teamWithAttacker(of: 1)
        #expect(try team.run(["grant", "alice", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let head = try team.head("s0")
        try team.attackerPushes(push.name) { try team.write(push.path, push.content, in: TeamFixture.attacker) }
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 4, "\(push.name): \(sync.stderr)")
        #expect(sync.stderr.contains(push.path) && sync.stderr.contains(push.words), "\(push.name): \(sync.stderr)")
        #expect(try team.head("s0") == head)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/" + push.path))
    }

    /// The tool's own entries arrive: an alias entry naming a customer whose profile comes with it.
    @Test func anAliasEntryWithItsProfileArrives() throws {
        let team = try TeamFixture.teamWithAttacker(of: 1)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        try team.attackerPushes("alias") {
            try team.write("profiles/bob.json", #"{"schema_version": 1, "customer_user_id": "bob", "aliases": ["bob-anon"], "transactions": [], "manual_grants": []}"#,
                           in: TeamFixture.attacker)
            try team.write("index/alias/bob-anon", "bob", in: TeamFixture.attacker)
        }
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(FileManager.default.fileExists(atPath: team.store("s0") + "/index/alias/bob-anon"))
    }
}
