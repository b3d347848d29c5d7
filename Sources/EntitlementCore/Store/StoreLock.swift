import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store-wide writer lock: an exclusive `flock` on `STORE/.lock`.
///
/// Every read-modify-write of the store runs under it, so concurrent writers are
/// serialized. The kernel drops the lock when the process dies, so a killed
/// writer never leaves the store locked.
struct StoreLock {
    let path: String
    /// How long to wait for the lock before giving up with exit 5.
    let timeout: Double

    /// Runs `body` while holding the lock.
    func withLock<T>(_ body: () throws(EntitlementError) -> T) throws(EntitlementError) -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: path, message: "cannot open lock file: \(FileSystem.errorMessage())") }
        defer { close(fd) }
        let deadline = monotonicSeconds() + timeout
        var pause: useconds_t = 500
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .io(path: path, message: "cannot lock: \(FileSystem.errorMessage())")
            }
            guard monotonicSeconds() < deadline else { throw .busy(path: path, seconds: timeout) }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
