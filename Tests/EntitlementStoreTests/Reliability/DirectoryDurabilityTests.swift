import Foundation
import Glibc
import Synchronization
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// A write that creates folders (the fan-out layout's `profiles/ab/cd/`) makes each new
/// folder's entry durable in its parent, not only the file's entry in the new folder.
@Suite(.tags(.cli))
struct DirectoryDurabilityTests {
    /// The directory operations a store made, in order, seen through the `FileSystem` seam.
    final class Recorder: Sendable {
        enum Event: Equatable { case mkdir(String), fsyncDirectory(String), rename(to: String), unlink(String) }
        private let state = Mutex<(events: [Event], directories: [Int32: String])>(([], [:]))
        var events: [Event] { state.withLock { $0.events } }

        var fileSystem: FileSystem {
            var fs = FileSystem.system
            fs.open = { path, flags, mode in
                let fd = Glibc.open(path, flags, mode)
                if fd >= 0, flags & O_DIRECTORY != 0 { self.state.withLock { $0.directories[fd] = path } }
                return fd
            }
            fs.close = { fd in
                self.state.withLock { $0.directories[fd] = nil }
                return Glibc.close(fd)
            }
            fs.fsync = { fd in
                self.state.withLock { value in if let path = value.directories[fd] { value.events.append(.fsyncDirectory(path)) } }
                return Glibc.fsync(fd)
            }
            fs.rename = { from, to in
                let result = Glibc.rename(from, to)
                if result == 0 { self.state.withLock { $0.events.append(.rename(to: to)) } }
                return result
            }
            fs.unlink = { path in
                let result = Glibc.unlink(path)
                if result == 0 { self.state.withLock { $0.events.append(.unlink(path)) } }
                return result
            }
            fs.mkdir = { path, mode in
                let result = Glibc.mkdir(path, mode)
                if result == 0 { self.state.withLock { $0.events.append(.mkdir(path)) } }
                return result
            }
            return fs
        }
    }

    /// A fan-out store whose directory operations `recorder` sees.
    func recordedStore(_ directory: TemporaryDirectory) -> (EntitlementStore, Recorder) {
        let recorder = Recorder()
        var store = EntitlementStore(root: fanoutStore(directory))
        store.fileSystem = recorder.fileSystem
        return (store, recorder)
    }

    func fanoutStore(_ directory: TemporaryDirectory) -> String {
        let root = directory.path + "/store"
        #expect(runCLI(["init", "--store", root]).exitCode == 0)
        #expect(runCLI(["migrate", "--layout", "fanout", "--store", root]).exitCode == 0)
        return root
    }

    /// For generated users (seeded): every folder a save creates is followed by an fsync of
    /// its parent, and the saved file's folder is fsynced after it (the rename into it).
    @Test func everyNewFolderIsFsyncedInItsParent() throws {
        let directory = TemporaryDirectory()
        let (store, recorder) = recordedStore(directory)
        var random = SplitMix64(seed: 2026_11)
        var created = 0
        for index in 0..<40 {
            let user = "user-\(index)-\(random.next() % 1_000_000)"
            let profile = Profile(profileID: "pid-\(random.next() % 1_000_000)", customerUserID: user, createdAt: nil)
            let before = recorder.events.count
            try store.withWriteLock { () throws(EntitlementError) in _ = try store.saveProfile(profile) }
            let events = Array(recorder.events[before...])
            for case (let position, .mkdir(let path)) in events.enumerated() {
                created += 1
                #expect(events[(position + 1)...].contains(.fsyncDirectory(PathName.directory(of: path))), "no fsync of the parent of \(path)")
            }
            let file = store.profilePath(for: user)
            #expect(events.contains(.fsyncDirectory(PathName.directory(of: file))))
        }
        // profiles/ab, profiles/ab/cd, index/, index/profile-id/ab … : many folders were new.
        #expect(created >= 80)
    }

    /// A store opened without durability (tests, bulk scratch work) makes no fsync at all.
    @Test func aStoreWithoutDurabilityFsyncsNoFolder() throws {
        let directory = TemporaryDirectory()
        var (store, recorder) = recordedStore(directory)
        store.durable = false
        try store.withWriteLock { () throws(EntitlementError) in _ = try store.saveProfile(Profile(profileID: nil, customerUserID: "alice", createdAt: nil)) }
        #expect(recorder.events.contains { if case .mkdir = $0 { true } else { false } })
        #expect(!recorder.events.contains { if case .fsyncDirectory = $0 { true } else { false } })
    }

    /// A batch that makes many fan-out folders under the same parents (an ingest batch into a
    /// fresh store: `ingest/events/appstore/xx/`) fsyncs each parent once, after its last new
    /// folder and before the journal is renamed into place (the commit point); every new folder
    /// is fsynced after the files are renamed into it.
    @Test func aBatchFsyncsEachParentOnceBeforeItsCommitPoint() throws {
        let directory = TemporaryDirectory()
        let (store, recorder) = recordedStore(directory)
        var random = SplitMix64(seed: 2026_11_29)
        var changes: [EntitlementStore.FileChange] = []
        for index in 0..<120 {
            let digest = SHA256.hexDigest(Array("event-\(index)-\(random.next())".utf8))
            changes.append(.init(path: "ingest/events/appstore/\(digest.prefix(2))/\(digest).json", bytes: Array("{}\n".utf8)))
        }
        try store.withWriteLock { () throws(EntitlementError) in _ = try store.commit(changes) }
        let events = recorder.events
        let made = events.compactMap { if case .mkdir(let path) = $0 { path } else { nil } }
        let folders = Set(changes.map { store.root + "/" + PathName.directory(of: $0.path) })
        #expect(Set(made).isSuperset(of: folders))
        #expect(folders.count > 50)
        let commitPoint = try #require(events.firstIndex(of: .rename(to: store.root + "/.journal")))
        for parent in Set(made.map { PathName.directory(of: $0) }) {
            // (The store's root is fsynced again after the commit point, for the journal's own name.)
            let syncs = events[..<commitPoint].indices.filter { events[$0] == .fsyncDirectory(parent) }
            #expect(syncs.count == 1, "\(parent) fsynced \(syncs.count) times before the commit point")
            let lastMade = try #require(events.lastIndex { if case .mkdir(let path) = $0 { PathName.directory(of: path) == parent } else { false } })
            #expect(syncs.allSatisfy { $0 > lastMade }, "\(parent) fsynced before its last new folder was made")
        }
        for folder in folders {
            let lastRename = try #require(events.lastIndex { if case .rename(let to) = $0 { PathName.directory(of: to) == folder } else { false } })
            #expect(events[lastRename...].contains(.fsyncDirectory(folder)), "\(folder) not fsynced after the renames into it")
        }
        // The journal's removal is the last step and is not flushed (a journal back after a crash replays as nothing).
        let removal = try #require(events.firstIndex(of: .unlink(store.root + "/.journal")))
        #expect(!events[removal...].contains { if case .fsyncDirectory = $0 { true } else { false } })
    }

    /// A journal whose removal a crash undid is replayed by the next writer as nothing: its
    /// staged files were renamed, so the store stays byte for byte as the commit left it.
    @Test func aJournalBackAfterItsRemovalChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = EntitlementStore(root: fanoutStore(directory))
        var changes: [EntitlementStore.FileChange] = []
        for index in 0..<5 {
            let digest = SHA256.hexDigest(Array("event-\(index)".utf8))
            changes.append(.init(path: "ingest/events/appstore/\(digest.prefix(2))/\(digest).json", bytes: Array("{\"n\": \(index)}\n".utf8)))
        }
        let removed = Mutex<[UInt8]>([])
        var capturing = store
        capturing.fileSystem.unlink = { path in
            if path.hasSuffix("/.journal"), let bytes = try? FileSystem.system.readFile(path) { removed.withLock { $0 = bytes } }
            return Glibc.unlink(path)
        }
        try capturing.withWriteLock { () throws(EntitlementError) in _ = try capturing.commit(changes) }
        let journal = removed.withLock { $0 }
        #expect(!journal.isEmpty)
        let before = snapshot(store.root)
        try FileSystem.system.replace(store.root + "/.journal", with: journal, stagingDirectory: store.root + "/.tmp", newFileMode: 0o600, durable: false)
        try store.withWriteLock { () throws(EntitlementError) in try store.recover() }
        #expect(snapshot(store.root) == before)
    }

    /// Every file below `root` but the lock, by path, with its bytes.
    private func snapshot(_ root: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for path in (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? [] where !path.hasSuffix(".lock") {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = (try? FileSystem.system.readFile(root + "/" + path)).flatMap { $0 } ?? []
            }
        }
        return files
    }
}
