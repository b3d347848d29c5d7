import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementStore
import EntitlementTestSupport

/// `sync` tells the kept list of profile names (`.profile-names`) of the profiles others
/// created, so "did you mean" after a sync still reads the list, not every folder.
@Suite(.tags(.endToEnd))
struct TeamNameListTests {
    @Test func profilesOthersCreatedJoinTheListAtSync() throws {
        let team = try TeamFixture.team(of: 2)
        // s0 keeps a list: its first grant made one.
        #expect(try team.run(["grant", "alice@customer.com", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: team.store("s0") + "/.profile-names"))
        #expect(try team.run(["grant", "bob@customer.com", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let sync = try team.run(["sync"], in: "s0")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        var store = EntitlementStore(root: team.store("s0"))
        let listings = WorkCounter()
        store.nameListings = listings
        #expect(store.nearUserID(to: "bbo@customer.com") == "bob@customer.com")
        #expect(store.nearUserID(to: "alcie@customer.com") == "alice@customer.com")
        #expect(listings.steps == 0, "answered from the list")
        let grant = try team.run(["grant", "bbo@customer.com", "premium", "--lifetime"], in: "s0")
        #expect(grant.stderr.contains("Did you mean 'bob@customer.com'?"), "\(grant.stderr)")
        #expect(try team.settledStatus(in: "s0").isEmpty)
    }

    /// A clone that keeps no list gets none from `sync` (listing every folder is the next
    /// write's job, not the sync's), and its suggestions come from the folders.
    @Test func withoutAListSyncMakesNone() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "bob@customer.com", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.profile-names"))
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.profile-names"))
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.profile-names-added"))
        #expect(EntitlementStore(root: team.store("s0")).nearUserID(to: "bbo@customer.com") == "bob@customer.com")
    }
}
