import Glibc
import EntitlementBasics
import EntitlementModel

/// The store-wide writer lock: an exclusive `flock` on `STORE/.lock`.
///
/// Every read-modify-write of the store runs under it, so concurrent writers are
/// serialized. The kernel drops the lock when the process dies, so a killed
/// writer never leaves the store locked. The lock file is never followed through a
/// symbolic link and must be a regular file (a FIFO there would block the open).
package struct StoreLock {
    let path: String
    /// How long to wait for the lock before giving up with exit 5.
    let timeout: Double
    var fileSystem: FileSystem = .system
    /// Mode of the lock file when it is created.
    var mode: mode_t = StorePolicy.defaultFileMode

    package init(path: String, timeout: Double, fileSystem: FileSystem = .system, mode: mode_t = StorePolicy.defaultFileMode) {
        self.path = path
        self.timeout = timeout
        self.fileSystem = fileSystem
        self.mode = mode
    }

    /// Runs `body` while holding the lock.
    package func withLock<T>(_ body: () throws(EntitlementError) -> T) throws(EntitlementError) -> T {
        let fs = fileSystem
        let fd: Int32
        do {
            fd = try systemCall("open") { fs.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode) }
        } catch {
            if error.code == ELOOP { throw StorePolicy.symlinkRefused(path) }
            throw .io(path: path, message: "cannot open lock file: \(error.message)")
        }
        defer { fs.closeQuietly(fd) }
        var status = stat()
        do {
            try systemCall("fstat") { fs.fstat(fd, &status) }
        } catch {
            throw .io(path: path, message: "cannot stat lock file: \(error.message)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw StorePolicy.notRegular(path, kind: status.st_mode & S_IFMT) }
        let deadline = monotonicSeconds() + timeout
        var pause: useconds_t = 500
        while true {
            do {
                try systemCall("flock") { fs.flock(fd, LOCK_EX | LOCK_NB) }
                break
            } catch where error.code == EWOULDBLOCK {
                guard monotonicSeconds() < deadline else { throw .busy(path: path, seconds: timeout) }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            } catch {
                throw .io(path: path, message: "cannot lock: \(error.message)")
            }
        }
        defer { _ = try? systemCall("flock") { fs.flock(fd, LOCK_UN) } }
        return try body()
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
