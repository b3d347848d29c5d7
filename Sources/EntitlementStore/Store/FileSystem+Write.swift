import Glibc
import EntitlementBasics
import EntitlementModel

extension FileSystem {
    /// Writes `bytes` to a new file in `stagingDirectory`, ready to be renamed over
    /// `target`: written in full, given the mode and owner of the file it replaces
    /// (or `newFileMode`), fsynced when `durable`. Returns the staged file's path.
    /// Errors name `target`, the file the user knows, not the staging file. The staged file is
    /// named `prefix` (the target's name and a dot by default), the process id and a random number.
    package func stage(_ bytes: [UInt8], replacing target: String, in stagingDirectory: String,
               newFileMode: mode_t, durable: Bool, prefix: String? = nil, writeBackEarly: Bool = false) throws(EntitlementError) -> String {
        var mode = newFileMode
        var owner: (uid_t, gid_t)?
        if let existing = try status(target) {
            let kind = existing.st_mode & S_IFMT
            if kind == S_IFLNK { throw StorePolicy.symlinkRefused(target) }
            guard kind == S_IFREG else { throw StorePolicy.notRegular(target, kind: kind) }
            mode = existing.st_mode & 0o7777
            guard mode & S_IWUSR != 0 else {
                throw .io(path: target, message: "is read-only (mode 0\(String(mode, radix: 8))); the tool does not replace it. Make it writable (chmod u+w) to allow changes")
            }
            owner = (existing.st_uid, existing.st_gid)
        }
        let staged = "\(stagingDirectory)/\(prefix ?? PathName.base(of: target) + ".")\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd: Int32
        do {
            fd = try systemCall("open") { open(staged, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        } catch {
            throw .io(path: target, message: "cannot create its replacement in \(PathName.base(of: stagingDirectory))/: \(error.message)")
        }
        do throws(SystemError) {
            try writeAll(bytes, to: fd)
            try systemCall("fchmod") { fchmod(fd, mode) }
            if let owner, owner != (geteuid(), getegid()) {
                // Keeping the owner needs privilege; without it the file keeps its mode and group where allowed.
                do { try systemCall("fchown") { fchown(fd, owner.0, owner.1) } } catch where error.code == EPERM {}
            }
            if durable {
                try systemCall("fsync") { fsync(fd) }
            } else if writeBackEarly {
                _ = startWriteback(fd)  // a hint: the caller fsyncs the file later (`syncFile`)
            }
            let descriptor = fd
            try systemCall("close") { close(descriptor) }
        } catch {
            if error.call != "close" { closeQuietly(fd) }
            _ = try? systemCall("unlink") { unlink(staged) }
            throw .io(path: target, message: "cannot write: \(error.message) (\(error.call)); the file is unchanged")
        }
        return staged
    }

    /// Renames a staged file over `target`, then fsyncs `target`'s directory so the
    /// rename survives a crash.
    package func install(_ staged: String, as target: String, durable: Bool) throws(EntitlementError) {
        do {
            try systemCall("rename") { rename(staged, target) }
        } catch {
            _ = try? systemCall("unlink") { unlink(staged) }
            throw .io(path: target, message: "cannot rename into place: \(error.message); the file is unchanged")
        }
        if durable { try syncDirectory(PathName.directory(of: target)) }
    }

    /// Replaces `target` atomically: readers see the old file or the new one, never a mix.
    package func replace(_ target: String, with bytes: [UInt8], stagingDirectory: String, newFileMode: mode_t, durable: Bool) throws(EntitlementError) {
        let staged = try stage(bytes, replacing: target, in: stagingDirectory, newFileMode: newFileMode, durable: durable)
        try install(staged, as: target, durable: durable)
    }

    /// fsync of a file written and closed earlier (`stage` with `writeBackEarly`), by its path.
    func syncFile(_ path: String) throws(EntitlementError) {
        do {
            let fd = try systemCall("open") { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0) }
            defer { closeQuietly(fd) }
            try systemCall("fsync") { fsync(fd) }
        } catch {
            throw .io(path: path, message: "cannot fsync: \(error.message)")
        }
    }

    /// fsync of a directory, so a rename or a new entry in it survives a crash.
    package func syncDirectory(_ path: String) throws(EntitlementError) {
        do {
            let fd = try systemCall("open") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
            defer { closeQuietly(fd) }
            try systemCall("fsync") { fsync(fd) }
        } catch {
            throw .io(path: path, message: "cannot fsync directory: \(error.message)")
        }
    }

    /// Creates directory `path` with `mode` (exactly: no umask) if missing. An existing
    /// symbolic link is refused unless `followLink` (the store root may be a link).
    /// Returns true when this call created it (its parent then needs an fsync to keep it).
    @discardableResult
    package func makeDirectory(_ path: String, mode: mode_t, followLink: Bool = false) throws(EntitlementError) -> Bool {
        if let existing = try status(path) {
            let kind = existing.st_mode & S_IFMT
            if kind == S_IFDIR || followLink && kind == S_IFLNK && isDirectory(path) { return false }
            if kind == S_IFLNK { throw StorePolicy.symlinkRefused(path) }
            throw StorePolicy.notDirectory(path, kind: kind)
        }
        do {
            try systemCall("mkdir") { mkdir(path, mode) }
        } catch {
            if error.code == EEXIST, isDirectory(path) { return false }
            throw .io(path: path, message: "cannot create directory: \(error.message)")
        }
        do {
            try systemCall("chmod") { chmod(path, mode) }
        } catch {
            throw .io(path: path, message: "cannot create directory: \(error.message)")
        }
        return true
    }

    /// Writes all of `bytes`, going on after short writes.
    package func writeAll(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in
                var written = 0
                while written < buffer.count {
                    let count = try systemCall("write") { write(fd, buffer.baseAddress! + written, buffer.count - written) }
                    // A write that makes no progress would loop forever: treat it as a full disk.
                    guard count > 0 else { throw SystemError(call: "write", code: ENOSPC) }
                    written += count
                }
            }
        }
        try result.get()
    }
}
