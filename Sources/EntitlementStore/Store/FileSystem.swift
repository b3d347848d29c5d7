import Glibc
import EntitlementBasics
import EntitlementModel

/// The store's seam to the operating system: one closure per system call it makes.
///
/// `FileSystem.system` calls the kernel. Tests build a `FileSystem` whose closures
/// fail (set `errno`, return -1) or return short counts at any chosen step, to prove
/// that no write loses or half-applies anything. Closures return what the C call
/// returns; `systemCall(_:_:)` retries EINTR and reads `errno`.
package struct FileSystem: Sendable {
    package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    package var close: @Sendable (_ fd: Int32) -> Int32
    var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
    package var write: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int
    package var fsync: @Sendable (_ fd: Int32) -> Int32
    /// `sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE)`: starts writing the file's dirty pages
    /// back without waiting, so that the fsyncs of a batch's files, later, find them written.
    /// A hint only: durability is always the `fsync` that follows.
    var startWriteback: @Sendable (_ fd: Int32) -> Int32
    var fstat: @Sendable (_ fd: Int32, _ status: UnsafeMutablePointer<stat>) -> Int32
    /// `ftruncate(2)`: empties a prepared file again after a failed write (`PreparedFiles`).
    var truncate: @Sendable (_ fd: Int32, _ length: off_t) -> Int32
    var lstat: @Sendable (_ path: String, _ status: UnsafeMutablePointer<stat>) -> Int32
    package var fchmod: @Sendable (_ fd: Int32, _ mode: mode_t) -> Int32
    package var fchown: @Sendable (_ fd: Int32, _ owner: uid_t, _ group: gid_t) -> Int32
    package var chmod: @Sendable (_ path: String, _ mode: mode_t) -> Int32
    package var rename: @Sendable (_ from: String, _ to: String) -> Int32
    /// A second name for a file; fails with EEXIST rather than replace one (a move that never replaces).
    package var link: @Sendable (_ from: String, _ to: String) -> Int32
    package var unlink: @Sendable (_ path: String) -> Int32
    package var mkdir: @Sendable (_ path: String, _ mode: mode_t) -> Int32
    /// Removes an empty directory.
    var rmdir: @Sendable (_ path: String) -> Int32
    var flock: @Sendable (_ fd: Int32, _ operation: Int32) -> Int32
    /// `opendir(3)`: the start of every directory walk (`walk`); nil and `errno` on failure.
    var openDirectory: @Sendable (_ path: String) -> OpaquePointer?
    /// `kill(2)`; signal 0 asks only whether the process exists (`processExists`).
    var signal: @Sendable (_ pid: pid_t, _ signal: Int32) -> Int32

    /// The real kernel.
    package static let system = FileSystem(
        open: { Glibc.open($0, $1, $2) },
        close: { Glibc.close($0) },
        read: { Glibc.read($0, $1, $2) },
        write: { Glibc.write($0, $1, $2) },
        fsync: { Glibc.fsync($0) },
        startWriteback: { systemSyncFileRange($0, 0, 0, 2 /* SYNC_FILE_RANGE_WRITE */) },
        fstat: { Glibc.fstat($0, $1) },
        truncate: { Glibc.ftruncate($0, $1) },
        lstat: { Glibc.lstat($0, $1) },
        fchmod: { Glibc.fchmod($0, $1) },
        fchown: { Glibc.fchown($0, $1, $2) },
        chmod: { Glibc.chmod($0, $1) },
        rename: { Glibc.rename($0, $1) },
        link: { Glibc.link($0, $1) },
        unlink: { Glibc.unlink($0) },
        mkdir: { Glibc.mkdir($0, $1) },
        rmdir: { Glibc.rmdir($0) },
        flock: { lockFile($0, $1) },
        openDirectory: { opendir($0) },
        signal: { kill($0, $1) })

    /// `lstat` of `path`: nil when nothing is there (a symbolic link is described, not followed).
    package func status(_ path: String) throws(EntitlementError) -> stat? {
        var status = stat()
        do {
            try systemCall("lstat") { lstat(path, &status) }
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return nil }
            throw .io(path: path, message: "cannot stat: \(error.message)")
        }
        return status
    }

    package func exists(_ path: String) -> Bool { (try? status(path)).flatMap { $0 } != nil }

    /// True for a directory, following a symbolic link (used for the store root only).
    package func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return statFollowingLinks(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Names in a directory, without `.` and `..`, in directory order.
    package func list(_ path: String) throws(EntitlementError) -> [String] {
        var names: [String] = []
        do {
            try walk(path) { entry in
                names.append(String(decoding: entry.name, as: UTF8.self))
                return true
            }
        } catch {
            throw .io(path: path, message: "cannot list: \(error.message)")
        }
        return names
    }

    /// Whether process `pid` of this machine is alive (`kill(pid, 0)`; one of another user counts).
    package func processExists(_ pid: pid_t) -> Bool {
        do {
            try systemCall("kill") { signal(pid, 0) }
            return true
        } catch {
            return error.code == EPERM
        }
    }

    package func closeQuietly(_ fd: Int32) { _ = try? systemCall("close") { close(fd) } }
}

/// `sync_file_range(2)`, which Glibc's module map does not export (a GNU extension).
@_silgen_name("sync_file_range") private func systemSyncFileRange(_ fd: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32

/// `flock(2)`; a free function because inside `FileSystem` the name means the closure.
private func lockFile(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }

/// `stat(2)`, which follows links; a free function because `stat` also names the struct.
private func statFollowingLinks(_ path: String, _ status: UnsafeMutablePointer<stat>) -> Int32 { stat(path, status) }
