import Glibc
import EntitlementBasics
import EntitlementModel

/// Empty files made durable ahead of time in a folder, so that a later write is durable after
/// one flush (the file's) instead of three (the file, its rename, its folder): how `webhook`
/// spools a request before its 200 (docs/ingest.md, "The spool").
///
/// A prepared file is named `.slot-` and a random number, and is free while it is empty. A
/// writer claims one with an exclusive `flock` and finds it empty; it writes and fsyncs it, and
/// from then on the file's bytes are as durable as a renamed spool file would be: the file's name
/// was made durable when it was prepared. The writer later `publish`es it under its real name (a
/// link, the folder fsynced, then the prepared name removed), so at every moment the bytes have
/// a durable name. A prepared file that holds bytes and that no one holds a lock on was left by
/// a writer that is gone (killed); `adoptable` finds those for whoever publishes them instead.
package struct PreparedFiles: Sendable {
    package static let prefix = ".slot-"

    package let fileSystem: FileSystem
    package let directory: String

    package init(fileSystem: FileSystem, directory: String) {
        self.fileSystem = fileSystem
        self.directory = directory
    }

    /// A prepared file this process holds the lock of (until `publish` or `release`).
    package struct Claim: Sendable {
        package let path: String
        let descriptor: Int32
    }

    /// True for a prepared file's name (which is no request of its own and never abandoned).
    package static func isPrepared(_ name: String) -> Bool { name.hasPrefix(prefix) }

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
                if (try? systemCall("ftruncate") { ftruncate(claim.descriptor, 0) }) == nil {
                    _ = try? systemCall("unlink") { fileSystem.unlink(claim.path) }
                }
                release(claim)
                return nil
            }
        }
        return nil
    }

    /// Gives a claimed file the name `target` (in another folder of the same file system),
    /// never replacing a file: a link, then `target`'s folder fsynced when `durable`, then the
    /// prepared name removed; releases the claim. A file already linked (its writer was killed
    /// after the link) only loses its prepared name.
    package func publish(_ claim: Claim, as target: String, durable: Bool) throws(EntitlementError) {
        defer { release(claim) }
        var status = stat()
        let linked = (try? systemCall("fstat") { fileSystem.fstat(claim.descriptor, &status) }) != nil && status.st_nlink > 1
        if !linked {
            do {
                try systemCall("link") { fileSystem.link(claim.path, target) }
            } catch {
                throw .io(path: target, message: "cannot link \(PathName.base(of: claim.path)) into place: \(error.message); it stays in \(PathName.base(of: directory))/ for the next reader")
            }
            if durable { try fileSystem.syncDirectory(PathName.directory(of: target)) }
        }
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

    /// Prepared files holding bytes whose writer is gone, each claimed, with its bytes, in name
    /// order. A file whose writer still holds it is left alone.
    package func adoptable() -> [(claim: Claim, bytes: [UInt8])] {
        guard let names = try? fileSystem.list(directory) else { return [] }
        var found: [(claim: Claim, bytes: [UInt8])] = []
        for name in names.sorted() where Self.isPrepared(name) {
            let path = "\(directory)/\(name)"
            guard let size = (try? fileSystem.status(path))??.st_size, size > 0,
                  let claim = lock(path, wantingEmpty: false) else { continue }
            guard let bytes = try? fileSystem.readFile(path), !bytes.isEmpty else {
                release(claim)
                continue
            }
            found.append((claim, bytes))
        }
        return found
    }

    /// Prepares files (mode `mode`) until `count` are free, then fsyncs the folder once.
    /// A hint: a failure leaves fewer, and writers then write the usual way.
    package func replenish(to count: Int, mode: mode_t, durable: Bool) {
        guard let names = try? fileSystem.list(directory) else { return }
        let free = names.filter { name in
            Self.isPrepared(name) && (try? fileSystem.status("\(directory)/\(name)"))??.st_size == 0
        }.count
        guard free < count else { return }
        var made = 0
        for _ in free..<count {
            let path = "\(directory)/\(Self.prefix)\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            guard let fd = try? systemCall("open", { fileSystem.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }) else { continue }
            _ = try? systemCall("fchmod") { fileSystem.fchmod(fd, mode) }
            fileSystem.closeQuietly(fd)
            made += 1
        }
        if made > 0, durable { try? fileSystem.syncDirectory(directory) }
    }

    /// Opens and locks `path` (exclusive, without waiting). With `wantingEmpty`, only a free
    /// file (empty, still named); otherwise a file that still has its name and holds bytes.
    private func lock(_ path: String, wantingEmpty: Bool) -> Claim? {
        guard let fd = try? systemCall("open", { fileSystem.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0) }) else { return nil }
        let claim = Claim(path: path, descriptor: fd)
        var status = stat()
        guard (try? systemCall("flock") { fileSystem.flock(fd, LOCK_EX | LOCK_NB) }) != nil else {
            fileSystem.closeQuietly(fd)
            return nil
        }
        // Checked under the lock: another process may have filled it, or removed its name, before.
        guard (try? systemCall("fstat") { fileSystem.fstat(fd, &status) }) != nil, status.st_mode & S_IFMT == S_IFREG,
              status.st_nlink > 0, (status.st_size == 0) == wantingEmpty else {
            release(claim)
            return nil
        }
        return claim
    }
}
