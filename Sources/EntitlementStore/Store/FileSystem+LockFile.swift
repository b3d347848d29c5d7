import Glibc
import EntitlementBasics
import EntitlementModel

extension FileSystem {
    /// What `replaceThroughLock` does with a lock file that is already there.
    package enum StaleLock {
        /// Leave it: another writer holds it (git's rule for `index.lock`; the caller is told `false`).
        case respect
        /// Remove it when its modification time is `seconds` or more before `now`, then try once
        /// more: for files only this tool writes, whose writer never takes that long (a killed
        /// writer's lock would otherwise block every later write).
        case removeOlderThan(seconds: Double, now: Double)
    }

    /// The one single-file replace over a lock file, as git's `lockfile.h` does it: create
    /// `TARGET.lock` exclusively (O_EXCL, never through a link), write `bytes` to it, let
    /// `beforeCommit` act on the descriptor (set times), fsync it when `durable`, close it,
    /// rename it over `target`, and fsync the folder when `durable`. Readers see the old file
    /// or the new one, never a mix. On any failure the lock file is removed and `target` is
    /// left as it was. Returns false, writing nothing, when the lock is held (`stale`).
    ///
    /// Unlike `replace`, the lock doubles as a mutual exclusion between writers, and the new file
    /// gets `mode` rather than the old file's mode and owner: for files of git and of caches.
    @discardableResult
    package func replaceThroughLock(_ target: String, with bytes: [UInt8], mode: mode_t = 0o600, durable: Bool,
                                    stale: StaleLock = .respect,
                                    beforeCommit: (Int32) throws(SystemError) -> Void = { _ throws(SystemError) in }) throws(EntitlementError) -> Bool {
        let lock = target + ".lock"
        guard let fd = try createLock(lock, mode: mode, stale: stale) else { return false }
        do throws(SystemError) {
            do throws(SystemError) {
                try writeAll(bytes, to: fd)
                try beforeCommit(fd)
                if durable { try systemCall("fsync") { fsync(fd) } }
            } catch {
                closeQuietly(fd)
                throw error
            }
            try systemCall("close") { close(fd) }
            try systemCall("rename") { rename(lock, target) }
        } catch {
            _ = try? systemCall("unlink") { unlink(lock) }
            throw .io(path: target, message: "cannot replace through \(PathName.base(of: lock)): \(error.message) (\(error.call)); the file is unchanged")
        }
        if durable { try syncDirectory(PathName.directory(of: target)) }
        return true
    }

    /// Creates the lock file; nil when another writer holds it.
    private func createLock(_ lock: String, mode: mode_t, stale: StaleLock) throws(EntitlementError) -> Int32? {
        var removedStale = false
        while true {
            do {
                return try systemCall("open") { open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) }
            } catch where error.code == EEXIST {
                guard !removedStale, case .removeOlderThan(let seconds, let now) = stale,
                      let status = try? status(lock), status.st_mode & S_IFMT == S_IFREG,
                      Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9 <= now - seconds else { return nil }
                _ = try? systemCall("unlink") { unlink(lock) }
                removedStale = true
            } catch {
                throw .io(path: lock, message: "cannot create: \(error.message)")
            }
        }
    }
}
