@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport
import Foundation
import Glibc
import Testing

/// A save of many new profiles writes their profile-id index entries in one journal: ingest's
/// batch of 500 new customers cost 500 durable commits (each with its fsyncs) before, which
/// held `ingest` of App Store notifications to ~45 events/s (docs/performance.md, "Live store").
@Suite(.tags(.cli))
struct IndexBatchTests {
    @Test func manyNewProfilesShareOneIndexCommit() throws {
        let directory = TemporaryDirectory()
        let counting = FaultyFileSystem()
        var store = EntitlementStore(root: directory.store())
        store.fileSystem = counting.fileSystem
        let profiles = (0..<100).map { Profile(profileID: "00000000-0000-4000-8000-\(String(format: "%012d", $0))", customerUserID: "user\($0)") }
        let warnings = try store.withWriteLock { () throws(EntitlementError) -> [String] in try store.save(configuration: nil, profiles: profiles) }
        #expect(warnings.isEmpty)
        let renamesIntoIndex = counting.calls.filter { $0.name == "rename" && $0.path.contains("index/profile-id/") }.count
        #expect(renamesIntoIndex == 100)
        // One journal for the profiles and one for the index, not one per profile.
        let journals = counting.calls.filter { $0.name == "rename" && $0.path == "\(store.root)/\(EntitlementStore.journalFileName)" }.count
        #expect(journals == 2, "\(journals) journals")
        for profile in profiles { #expect(try store.loadProfile(profileID: profile.profileID!)?.customerUserID == profile.customerUserID) }
    }
}
