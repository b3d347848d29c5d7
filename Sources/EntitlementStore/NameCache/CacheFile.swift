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
/// Read into memory of its own, never through a memory map: another process may truncate
/// or rewrite the file while it is read, and a mapped page past the new end raises SIGBUS; a
/// short read is only a file not used. Written through `CACHE.lock` by
/// `FileSystem.replaceThroughLock` (mode 0600, never through a symbolic link, fsynced, renamed
/// over it), so a reader sees a whole file or none; a lock left by a killed completion is
/// removed once it is a minute old. A file that is not exactly that (another user's, a link,
/// truncated, another signature) is not used. Every system call goes through `FileSystem`.
enum CacheFile {
    /// A lock file older than this many seconds is a killed writer's: writing the cache takes milliseconds.
    static let staleLockSeconds = 60.0

    /// The ids for `namePrefix` from the file at `path`, if it exists and starts with `header`.
    static func lookUp(path: String, header: String, namePrefix: [UInt8], limit: Int, fileSystem: FileSystem = .system) -> [String]? {
        guard let file = read(path, fileSystem: fileSystem) else { return nil }
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

    /// The whole file; nil unless it is a regular file of this user, not a link, read with as
    /// many bytes as its size (a file cut short meanwhile reads short).
    static func read(_ path: String, fileSystem: FileSystem = .system) -> [UInt8]? {
        guard let status = try? fileSystem.status(path), status.st_mode & S_IFMT == S_IFREG,
              status.st_uid == geteuid(), status.st_size > 0, let size = Int(exactly: status.st_size),
              let bytes = try? fileSystem.readFile(path), bytes.count == size else { return nil }
        return bytes
    }

    /// Saves `body` under `header` at `path` (in `folder`); quietly does nothing when it cannot.
    /// With `now`, a lock file older than `staleLockSeconds` is taken over; without it, respected.
    static func save(header: String, body: [UInt8], path: String, in folder: String, now: Double? = nil, fileSystem: FileSystem = .system) {
        removeLeftovers(in: folder, fileSystem: fileSystem)
        let stale: FileSystem.StaleLock = now.map { .removeOlderThan(seconds: staleLockSeconds, now: $0) } ?? .respect
        _ = try? fileSystem.replaceThroughLock(path, with: Array("\(header)\(body.count)\n".utf8) + body, mode: 0o600,
                                               durable: true, stale: stale)
    }

    /// Removes the temporary files (`.users-….tmp-PID`) that earlier versions left when a
    /// completion was interrupted, once their process is gone.
    private static func removeLeftovers(in folder: String, fileSystem: FileSystem) {
        var leftovers: [String] = []
        _ = try? fileSystem.walk(folder, detail: .names) { entry in
            guard entry.isHidden, entry.name.starts(with: ".users-".utf8) else { return true }
            let name = String(decoding: entry.name, as: UTF8.self)
            guard let dash = name.lastIndex(of: "-"), name[..<dash].hasSuffix(".tmp"),
                  let pid = pid_t(name[name.index(after: dash)...]), pid > 0, !fileSystem.processExists(pid) else { return true }
            leftovers.append("\(folder)/\(name)")
            return true
        }
        for file in leftovers { _ = try? systemCall("unlink") { fileSystem.unlink(file) } }
    }
}

private extension UInt8 {
    /// The value of an ASCII digit.
    var wholeNumberValue: Int? { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) ? Int(self - UInt8(ascii: "0")) : nil }
}
