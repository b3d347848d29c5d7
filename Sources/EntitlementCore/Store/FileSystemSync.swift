import Glibc

#if os(Linux)
@_silgen_name("syncfs") private func systemSyncfs(_ fd: Int32) -> Int32
#endif

/// One durable flush of a whole file system, for writes of many files at once.
enum FileSystemSync {
    /// `syncfs` of the file system holding `path` (Linux); elsewhere `sync`, which also waits.
    static func syncFileSystem(containing path: String) throws(EntitlementError) {
        #if os(Linux)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, message: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard systemSyncfs(fd) == 0 else { throw .io(path: path, message: "cannot sync: \(String(cString: strerror(errno)))") }
        #else
        sync()
        #endif
    }
}
