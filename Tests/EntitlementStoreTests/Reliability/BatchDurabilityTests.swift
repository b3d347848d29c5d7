import Foundation
import Glibc
import Testing
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// A journal's commit makes durable exactly the files and the folder it names, through the
/// store's seam: every staged file is fsynced, then `.tmp/`, before the journal is renamed into
/// place. The whole file system is never flushed (a `syncfs` waited for every other program's
/// writes on a shared disk: docs/performance.md, "Live store").
@Suite(.tags(.unit))
struct BatchDurabilityTests {
    @Test(arguments: [3, 100])
    func everyStagedFileAndTheStagingFolderAreSyncedBeforeTheCommitPoint(count: Int) throws {
        let directory = TemporaryDirectory()
        let recording = FaultyFileSystem()
        var store = EntitlementStore(root: directory.store())
        store.fileSystem = recording.fileSystem
        let profiles = (0..<count).map { Profile(customerUserID: "user\($0)") }
        _ = try store.withWriteLock { () throws(EntitlementError) -> [String] in try store.save(configuration: nil, profiles: profiles) }

        let calls = recording.calls
        let staging = "\(store.root)/\(EntitlementStore.stagingDirectory)"
        let journal = "\(store.root)/\(EntitlementStore.journalFileName)"
        // The first journal: the profiles (the profile-id index has its own, after it).
        let commitPoint = try #require(calls.firstIndex { $0.name == "rename" && $0.path == journal })
        let before = calls[..<commitPoint]
        // The profiles' staged files (the journal's own and the kept name list's are dot files).
        let staged = Set(before.filter { $0.name == "write" && $0.path.hasPrefix(staging + "/") && !$0.path.hasPrefix("\(staging)/.") }.map(\.path))
        #expect(staged.count == count)
        let synced = Set(before.filter { $0.name == "fsync" }.map(\.path))
        #expect(staged.subtracting(synced).isEmpty, "not fsynced before the commit point: \(staged.subtracting(synced).sorted().prefix(3))")
        #expect(synced.contains(staging))
        for profile in profiles { #expect(try store.loadProfile(userID: profile.customerUserID) != nil) }
    }
}
