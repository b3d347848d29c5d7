import Glibc
import EntitlementBasics
import EntitlementModel

/// Empty files made durable ahead of time in a folder, so that a later write is durable after
/// one flush (the file's) instead of three (the file, its rename, its folder): how `webhook`
/// spools a request before its 200 (docs/ingest.md, "The spool").
///
/// A prepared file is named `.slot-` and a random number. It is made with no permission bits
/// and gets its mode only after the folder has been fsynced, so a file a writer can claim always
/// has a durable name. A writer claims a ready, empty one with an exclusive `flock`, writes and
/// fsyncs it, and `publish`es it later under its real name: a link, the target's folder fsynced,
/// then the prepared name removed, so the bytes have a durable name at every moment. A prepared
/// file that holds bytes and that no one holds a lock on was left by a writer that is gone
/// (killed); `adoptable` finds those for whoever publishes them instead.
package struct PreparedFiles: Sendable {
    static let prefix = ".slot-"

    let fileSystem: FileSystem
    let directory: String

    package init(fileSystem: FileSystem, directory: String) {
        self.fileSystem = fileSystem
        self.directory = directory
    }

    /// A prepared file this process holds the lock of (until `publish` or `release`).
    package struct Claim: Sendable {
        package let path: String
        let descriptor: Int32

        /// The random part of the prepared file's name: the same for every process that publishes it.
        package var suffix: String { String(PathName.base(of: path).dropFirst(PreparedFiles.prefix.count)) }
    }

    /// True for a prepared file's name (which is no request of its own and never abandoned).
    static func isPrepared(_ name: String) -> Bool { name.hasPrefix(prefix) }

    /// Writes `bytes` into a free prepared file and fsyncs it when `durable`. Nil when there
    /// is none free, or when the write failed (the file is emptied again and left free): the
    /// caller then writes the usual way.
    package func write(_ bytes: [UInt8], durable: Bool) -> Claim? {
        guard !bytes.isEmpty, let names = try? fileSystem.list(directory) else { return nil }
        for name in names where Self.isPrepared(name) {
            guard let claim = lock("\(directory)/\(name)", wantingEmpty: true) else { continue }
            do throws(SystemError) {
                try fileSystem.writeAll(bytes, to: claim.descriptor)
                if durable { try systemCall("fsync") { fileSystem.fsync(claim.descriptor) } }
                return claim
            } catch {
                // Nothing was acknowledged: empty the file again (free) or, failing that, drop it.
                if (try? systemCall("ftruncate") { fileSystem.truncate(claim.descriptor, 0) }) == nil {
                    _ = try? systemCall("unlink") { fileSystem.unlink(claim.path) }
                }
                release(claim)
                return nil
            }
        }
        return nil
    }

    /// Gives a claimed file the name `target` (in another folder of the same file system) and
    /// releases the claim: a link (unless `target` already is this file: its writer was killed
    /// after the link), `target`'s folder fsynced when `durable`, then the prepared name removed.
    /// Throws, leaving the prepared name, when `target` names another file or a step fails.
    package func publish(_ claim: Claim, as target: String, durable: Bool) throws(EntitlementError) {
        defer { release(claim) }
        var own = stat()
        do {
            try systemCall("fstat") { fileSystem.fstat(claim.descriptor, &own) }
        } catch {
            throw .io(path: claim.path, message: "cannot stat: \(error.message)")
        }
        if let existing = try fileSystem.status(target) {
            guard existing.st_ino == own.st_ino, existing.st_dev == own.st_dev else {
                throw .io(path: target, message: "names another file; \(PathName.base(of: claim.path)) stays in \(PathName.base(of: directory))/")
            }
        } else {
            do {
                try systemCall("link") { fileSystem.link(claim.path, target) }
            } catch {
                throw .io(path: target, message: "cannot link \(PathName.base(of: claim.path)) into place: \(error.message); it stays in \(PathName.base(of: directory))/ for the next reader")
            }
        }
        // Before the prepared name goes, whoever made the link: until then it may be the only durable one.
        if durable { try fileSystem.syncDirectory(PathName.directory(of: target)) }
        do {
            try systemCall("unlink") { fileSystem.unlink(claim.path) }
        } catch where error.code != ENOENT {
            throw .io(path: claim.path, message: "cannot remove: \(error.message)")
        } catch {}
    }

    /// Lets go of a claim without publishing it: a file holding bytes stays for `adoptable`.
    package func release(_ claim: Claim) {
        _ = try? systemCall("flock") { fileSystem.flock(claim.descriptor, LOCK_UN) }
        fileSystem.closeQuietly(claim.descriptor)
    }

    /// Prepared files holding bytes whose writer is gone, each claimed, with its bytes (read
    /// through the claim) and its modification time, in name order. A file whose writer still
    /// holds it is left alone.
    package func adoptable() -> [(claim: Claim, bytes: [UInt8], modified: Int)] {
        var found: [(claim: Claim, bytes: [UInt8], modified: Int)] = []
        for path in holding() {
            guard let claim = lock(path, wantingEmpty: false) else { continue }
            var status = stat()
            guard (try? systemCall("fstat") { fileSystem.fstat(claim.descriptor, &status) }) != nil,
                  let bytes = try? fileSystem.readAll(claim.descriptor, path: path, sizeHint: Int(status.st_size), stopAtHint: false),
                  !bytes.isEmpty else {
                release(claim)
                continue
            }
            found.append((claim, bytes, status.st_mtim.tv_sec))
        }
        return found
    }

    /// The prepared files that hold bytes (full paths, in name order), whoever holds them.
    package func holding() -> [String] {
        guard let names = try? fileSystem.list(directory) else { return [] }
        return names.filter(Self.isPrepared).sorted().map { "\(directory)/\($0)" }.filter { path in
            ((try? fileSystem.status(path)) ?? nil).map { $0.st_size > 0 } ?? false
        }
    }

    /// Prepares files until `count` are free: each is made with no permission bits, the folder
    /// is fsynced (when `durable`), and only then is each given `mode` and so made claimable. A
    /// file left unready by a kill or a failed fsync is finished the same way. A hint: a failure
    /// leaves fewer ready, and writers then write the usual way.
    package func replenish(to count: Int, mode: mode_t, durable: Bool) {
        guard let names = try? fileSystem.list(directory) else { return }
        var ready = 0
        var unready: [String] = []
        for name in names where Self.isPrepared(name) {
            let path = "\(directory)/\(name)"
            guard let status = (try? fileSystem.status(path)) ?? nil, status.st_size == 0 else { continue }
            if status.st_mode & 0o777 == 0 { unready.append(path) } else { ready += 1 }
        }
        for _ in 0..<max(0, count - ready - unready.count) {
            let path = "\(directory)/\(Self.prefix)\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            guard let fd = try? systemCall("open", { fileSystem.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0) }) else { continue }
            fileSystem.closeQuietly(fd)
            unready.append(path)
        }
        guard !unready.isEmpty else { return }
        if durable, (try? fileSystem.syncDirectory(directory)) == nil { return }
        for path in unready { _ = try? systemCall("chmod") { fileSystem.chmod(path, mode) } }
    }

    /// Opens and locks `path` (exclusive, without waiting). With `wantingEmpty`, only a free
    /// file (ready, empty, still named); otherwise one that holds bytes.
    private func lock(_ path: String, wantingEmpty: Bool) -> Claim? {
        guard let fd = try? systemCall("open", { fileSystem.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0) }) else { return nil }
        let claim = Claim(path: path, descriptor: fd)
        guard (try? systemCall("flock") { fileSystem.flock(fd, LOCK_EX | LOCK_NB) }) != nil else {
            fileSystem.closeQuietly(fd)
            return nil
        }
        // Checked under the lock: another process may have filled it, or published it, before.
        var status = stat()
        guard (try? systemCall("fstat") { fileSystem.fstat(fd, &status) }) != nil, status.st_mode & S_IFMT == S_IFREG,
              status.st_nlink > 0, (status.st_size == 0) == wantingEmpty, !wantingEmpty || status.st_mode & 0o777 != 0,
              let named = (try? fileSystem.status(path)) ?? nil, named.st_ino == status.st_ino else {
            release(claim)
            return nil
        }
        return claim
    }
}
