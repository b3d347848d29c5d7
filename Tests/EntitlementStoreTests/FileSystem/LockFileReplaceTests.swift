import Foundation
import Glibc
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// `FileSystem.replaceThroughLock`, git's lock-file replace: every step made to fail leaves
/// the old file whole and no lock behind; a held lock is respected; a stale one (when asked)
/// is taken over.
@Suite(.tags(.unit))
struct LockFileReplaceTests {
    let directory = TemporaryDirectory()
    var target: String { directory.path + "/index" }

    func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }
    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() }

    @Test func replacesTheFileWholeAndLeavesNoLock() throws {
        _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        let replaced = try FileSystem.system.replaceThroughLock(target, with: Array("new".utf8), mode: 0o640, durable: true)
        #expect(replaced)
        #expect(contents(target) == Array("new".utf8))
        #expect(names() == ["index"])
        let mode = try #require(try FileSystem.system.status(target)).st_mode & 0o777
        #expect(mode == 0o640)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func aFailedStepLeavesTheOldFileAndNoLock(step: Int) throws {
        _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        // Steps: open the lock, write, fsync, close, rename (then the folder's fsync, after the rename).
        let faulty = FaultyFileSystem(failAt: step, fault: .error(EIO))
        #expect(throws: EntitlementError.self) {
            try faulty.fileSystem.replaceThroughLock(target, with: Array("new".utf8), durable: true)
        }
        #expect(faulty.fired)
        #expect(contents(target) == Array("old".utf8))
        #expect(names() == ["index"], "a lock file was left behind")
    }

    @Test func theStepsAreThoseOfGitsLockFile() throws {
        let counting = FaultyFileSystem()
        try counting.fileSystem.replaceThroughLock(target, with: Array("new".utf8), durable: true)
        #expect(counting.calls.map(\.name) == ["open", "write", "fsync", "close", "rename", "open", "fsync", "close"])
        #expect(counting.calls[0].path == target + ".lock")
    }

    @Test func aHeldLockIsRespected() throws {
        _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        _ = FileManager.default.createFile(atPath: target + ".lock", contents: Data())
        let replaced = try FileSystem.system.replaceThroughLock(target, with: Array("new".utf8), durable: false)
        #expect(!replaced)
        #expect(contents(target) == Array("old".utf8))
        #expect(FileManager.default.fileExists(atPath: target + ".lock"), "another writer's lock is not ours to remove")
    }

    @Test func aStaleLockIsTakenOverOnlyOnceOldEnough() throws {
        _ = FileManager.default.createFile(atPath: target + ".lock", contents: Data())
        let made = try #require(try FileSystem.system.status(target + ".lock"))
        let madeAt = Double(made.st_mtim.tv_sec)
        let young = FileSystem.StaleLock.removeOlderThan(seconds: 60, now: madeAt + 30)
        #expect(try FileSystem.system.replaceThroughLock(target, with: Array("new".utf8), durable: false, stale: young) == false)
        #expect(contents(target) == nil)
        let old = FileSystem.StaleLock.removeOlderThan(seconds: 60, now: madeAt + 61)
        #expect(try FileSystem.system.replaceThroughLock(target, with: Array("new".utf8), durable: false, stale: old))
        #expect(contents(target) == Array("new".utf8))
        #expect(names() == ["index"])
    }

    @Test func aFailureBeforeCommitLeavesTheOldFile() throws {
        _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        #expect(throws: EntitlementError.self) {
            try FileSystem.system.replaceThroughLock(target, with: Array("new".utf8), durable: false) { _ throws(SystemError) in
                throw SystemError(call: "futimens", code: EPERM)
            }
        }
        #expect(contents(target) == Array("old".utf8))
        #expect(names() == ["index"])
    }
}
