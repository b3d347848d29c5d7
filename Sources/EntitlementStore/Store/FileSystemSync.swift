import Glibc
import EntitlementModel

/// `syncfs(2)`, which Glibc's module map does not export (a GNU extension).
@_silgen_name("syncfs") private func systemSyncfs(_ fd: Int32) -> Int32

/// One durable flush of a whole file system, for writes of many files at once.
///
/// Open it before writing the files it is to make durable: Linux reports, at `syncfs`, the
/// write-back errors of the file system since the descriptor was opened (5.8 and later),
/// so an error in a write-back the kernel started on its own, before the sync, is reported too.
final class FileSystemSync {
    private let path: String
    private let fd: Int32

    /// Opens the directory `path`, on the file system to sync.
    init(directory path: String) throws(EntitlementError) {
        self.path = path
        fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, message: "cannot open: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// `syncfs`: returns once every dirty page and inode of the file system is on disk.
    func sync() throws(EntitlementError) {
        guard systemSyncfs(fd) == 0 else { throw .io(path: path, message: "cannot sync: \(String(cString: strerror(errno)))") }
    }
}
