import Glibc
import EntitlementBasics
import EntitlementModel

extension FileSystem {
    /// Which files a read accepts.
    package enum ReadPolicy {
        /// A store file: a regular file, never through a symbolic link, opened without
        /// blocking, so a FIFO in its place is refused instead of hanging the tool.
        case storeFile
        /// A file the user named (an import document, /etc/passwd): links are followed,
        /// and pipes are read as the user asked (`import <(…)`); directories are refused.
        case userFile
    }

    /// The file's bytes, or nil when it does not exist.
    package func readFile(_ path: String, policy: ReadPolicy = .storeFile) throws(EntitlementError) -> [UInt8]? {
        try readFileAndStatus(path, policy: policy)?.bytes
    }

    /// The file's bytes and its `fstat`, taken on the open file before it is read (as git
    /// stats a file before hashing it); nil when it does not exist.
    package func readFileAndStatus(_ path: String, policy: ReadPolicy = .storeFile) throws(EntitlementError) -> (bytes: [UInt8], status: stat)? {
        let flags = policy == .storeFile ? O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK : O_RDONLY | O_CLOEXEC
        let fd: Int32
        do {
            fd = try systemCall("open") { open(path, flags, 0) }
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return nil }
            if error.code == ELOOP, policy == .storeFile { throw StorePolicy.symlinkRefused(path) }
            throw .io(path: path, message: "cannot open: \(error.message)")
        }
        defer { closeQuietly(fd) }
        var status = stat()
        do {
            try systemCall("fstat") { fstat(fd, &status) }
        } catch {
            throw .io(path: path, message: "cannot stat: \(error.message)")
        }
        let kind = status.st_mode & S_IFMT
        switch policy {
        case .storeFile:
            // O_NONBLOCK has no effect on a regular file's reads, so it need not be cleared
            // (one system call less per profile read).
            guard kind == S_IFREG else { throw StorePolicy.notRegular(path, kind: kind) }
        case .userFile:
            guard kind != S_IFDIR else { throw .io(path: path, message: "is a directory") }
        }
        // A regular file is read up to its size: store files are replaced by rename, never
        // grown in place, so a read past `st_size` would only confirm the end (a system
        // call per profile). Pipes and other files are read to the end.
        return (try readAll(fd, path: path, sizeHint: Int(status.st_size), stopAtHint: kind == S_IFREG), status)
    }

    /// Reads to the end into uninitialized room: a large file's pages are first touched by
    /// the kernel's copy, not zeroed before it (for a 4 MB profile the zeroing alone cost
    /// about a millisecond). The room is one byte more than the size, so a regular file
    /// that grew is read whole; a pipe grows it by doubling.
    func readAll(_ fd: Int32, path: String, sizeHint: Int, stopAtHint: Bool) throws(EntitlementError) -> [UInt8] {
        var bytes: [UInt8] = []
        var capacity = max(sizeHint, 0) + 1
        while true {
            var failure: SystemError?
            var atEnd = false
            let kept = bytes
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = kept.isEmpty ? 0 : buffer.initialize(fromContentsOf: kept)
                while count < buffer.count {
                    let room = buffer.count - count, base = buffer.baseAddress! + count
                    do throws(SystemError) {
                        let got = try systemCall("read") { read(fd, base, room) }
                        if got == 0 { atEnd = true; return }
                        count += got
                        if stopAtHint, count == sizeHint { atEnd = true; return }
                    } catch {
                        failure = error
                        return
                    }
                }
            }
            if let failure { throw .io(path: path, message: "cannot read: \(failure.message)") }
            if atEnd { return bytes }
            capacity *= 2
        }
    }
}

extension FileSystem {
    /// Up to `count` bytes from the start of the file at `path` (fewer when it is shorter),
    /// never through a symbolic link; nil when it cannot be opened or read. For a header.
    package func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        guard let fd = try? systemCall("open", { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0) }) else { return nil }
        defer { closeQuietly(fd) }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            while filled < count {
                guard let got = try? systemCall("read", { read(fd, buffer.baseAddress! + filled, count - filled) }) else { failed = true; return }
                if got == 0 { return }
                filled += got
            }
        }
        return failed ? nil : bytes
    }

    /// Asks the kernel to start reading each of `paths` into the page cache, without
    /// waiting for it (`POSIX_FADV_WILLNEED`), so that reads made soon after find the
    /// bytes there: many reads in flight at once instead of one per thread. Only a hint:
    /// a file that is missing or cannot be opened is skipped, and nothing is reported.
    func prefetch(_ paths: [String]) {
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0)
            guard fd >= 0 else { continue }
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED)
            _ = close(fd)
        }
    }
}
