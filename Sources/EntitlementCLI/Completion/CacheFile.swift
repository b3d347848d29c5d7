import Glibc
import EntitlementBasics

/// One completion cache file: a text header, then `SortedNameLines`.
///
/// ```
/// entitlement-completion-cache 1
/// flat <signature digest>
/// <body length in bytes>
/// name…
/// ```
/// Read with `pread` into memory of its own, never through a memory map: another process
/// may truncate or rewrite the file while it is read, and a mapped page past the new end
/// raises SIGBUS; a short read is only a file not used. Written to a
/// temporary file beside it (mode 0600, never through a symbolic link), fsynced and
/// renamed over it, so a reader sees a whole file or none. A file that is not exactly that
/// (another user's, a link, truncated, another signature) is not used.
enum CacheFile {
    /// The ids for `namePrefix` from the file at `path`, if it exists and starts with `header`.
    static func lookUp(path: String, header: String, namePrefix: [UInt8], limit: Int) -> [String]? {
        guard let file = read(path) else { return nil }
        return file.withUnsafeBytes { file -> [String]? in
            let size = file.count
            let expected = Array(header.utf8)
            guard file.starts(with: expected) else { return nil }
            // The body length, so that a truncated file is never read as a shorter list.
            var position = expected.count, length = 0
            while position < size, position - expected.count < 12, let digit = file[position].wholeNumberValue { length = length * 10 + digit; position += 1 }
            guard position < size, position > expected.count, file[position] == UInt8(ascii: "\n"), size - position - 1 == length else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: file[(position + 1)...])
            return SortedNameLines(body: body).userIDs(withNamePrefix: namePrefix, limit: limit)
        }
    }

    /// The whole file, read by `pread` up to the size `fstat` gave; nil unless it is a regular
    /// file of this user with exactly that many bytes (a file cut short meanwhile reads short).
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
              status.st_size > 0, let size = Int(exactly: status.st_size) else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < size {
                let count = pread(fd, buffer.baseAddress! + done, size - done, off_t(done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// Saves `body` under `header` at `path`; quietly does nothing when it cannot.
    static func save(header: String, body: [UInt8], path: String, in folder: String) {
        removeLeftovers(in: folder)
        let temporary = "\(folder)/.\(PathName.base(of: path)).tmp-\(getpid())"
        unlink(temporary)  // a leftover of an earlier process with this id: no live process writes it
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = writeAll(Array("\(header)\(body.count)\n".utf8), fd) && writeAll(body, fd) && fsync(fd) == 0
        if close(fd) == 0, written, rename(temporary, path) == 0 { return }
        unlink(temporary)
    }

    /// Removes temporary files of completions that were interrupted (their process is gone).
    private static func removeLeftovers(in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name.hasPrefix(".users-"), let dash = name.lastIndex(of: "-"), name[..<dash].hasSuffix(".tmp"),
                  let pid = pid_t(name[name.index(after: dash)...]), pid > 0 else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink("\(folder)/\(name)") }
        }
    }

    private static func writeAll(_ bytes: [UInt8], _ fd: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                guard let count = try? systemCall("write", { write(fd, buffer.baseAddress! + written, buffer.count - written) }),
                      count > 0 else { return false }
                written += count
            }
            return true
        }
    }
}

private extension UInt8 {
    /// The value of an ASCII digit.
    var wholeNumberValue: Int? { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) ? Int(self - UInt8(ascii: "0")) : nil }
}
