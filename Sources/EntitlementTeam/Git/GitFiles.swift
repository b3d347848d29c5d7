import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// File operations of the team store's own bookkeeping (`.git/entitlement/…`, the merge
/// driver's files, `.gitattributes`): the same system calls as the store's, through
/// `FileSystem.system`, with the few shapes the git code needs.
package enum GitFiles {
    static var system: FileSystem { .system }

    /// The file's bytes, or nil when it does not exist (never through a symbolic link).
    package static func read(_ path: String) throws(EntitlementError) -> [UInt8]? { try system.readFile(path) }

    /// The file's bytes and its stat data, taken before it was read; nil when it does not exist.
    static func readWithStatus(_ path: String) throws(EntitlementError) -> (bytes: [UInt8], status: stat)? {
        try system.readFileAndStatus(path)
    }

    package static func exists(_ path: String) -> Bool { system.exists(path) }

    static func isDirectory(_ path: String) -> Bool { system.isDirectory(path) }

    package static func list(_ path: String) throws(EntitlementError) -> [String] { try system.list(path) }

    /// `mkdir -p`, each new directory 0700 (git's own folders and the store's are private),
    /// its entry fsynced in its parent (a new `.git/objects/ab/` must survive with its objects).
    package static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws(EntitlementError) {
        guard !path.isEmpty, path != "/", path != ".", !system.isDirectory(path) else { return }
        let parent = PathName.directory(of: path)
        if parent != path { try makeDirectory(parent, mode: mode) }
        if try system.makeDirectory(path, mode: mode), parent != path { try system.syncDirectory(parent) }
    }

    /// Replaces `path` atomically (a staged file beside it, then a rename), mode 0600 when new.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(EntitlementError) {
        try system.replace(path, with: bytes, stagingDirectory: PathName.directory(of: path), newFileMode: 0o600, durable: durable)
    }

    static func syncDirectory(_ path: String) throws(EntitlementError) { try system.syncDirectory(path) }

    /// Appends `bytes` to `path` (created 0600 if missing), fsynced when `durable`.
    static func append(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(EntitlementError) {
        do throws(SystemError) {
            let fd = try systemCall("open") { system.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            defer { system.closeQuietly(fd) }
            try system.writeAll(bytes, to: fd)
            if durable { try systemCall("fsync") { system.fsync(fd) } }
        } catch {
            throw .io(path: path, message: "cannot append: \(error.message)")
        }
    }

    /// Removes a file; fine if it does not exist.
    static func remove(_ path: String) throws(EntitlementError) {
        do {
            try systemCall("unlink") { system.unlink(path) }
        } catch where error.code == ENOENT {
        } catch {
            throw .io(path: path, message: "cannot remove: \(error.message)")
        }
    }

    /// chmod 0700: a hook git runs.
    static func makeExecutable(_ path: String) throws(EntitlementError) {
        do {
            try systemCall("chmod") { system.chmod(path, 0o700) }
        } catch {
            throw .io(path: path, message: "cannot make executable: \(error.message)")
        }
    }

    /// The last system error, as text.
    static func errorMessage() -> String { String(cString: strerror(errno)) }
}
