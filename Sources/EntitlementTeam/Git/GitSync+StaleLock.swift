import FoundationEssentials
import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// A git lock that a git process killed outside the tool left (a plain `git fetch` stopped
/// with Ctrl-C, a machine that lost power): the tool's own fetches leave a marker and are
/// recovered under the sync lock, but such a lock would fail every later fetch or push
/// (`cannot lock ref … File exists`). Named by git's message, it is removed as the other stale
/// locks are when it is older than the store's lock timeout and no git process works in this
/// repository; otherwise the error names the file and the fix.
extension GitSync {
    /// The lock file git's `message` says exists, when it is inside this repository's `.git`.
    func lockNamed(in message: String) -> String? {
        guard let start = message.firstRange(of: "Unable to create '") else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        let quoted = rest[..<end]
        // Git may print the path through another spelling of the store's folder: what follows `.git/` counts.
        guard let git = quoted.ranges(of: "/.git/").last else { return nil }
        let inside = String(quoted[git.upperBound...])
        guard inside.hasSuffix(".lock"), !inside.split(separator: "/").contains("..") else { return nil }
        return "\(repository.gitDirectory)/\(inside)"
    }

    /// Removes `lock` when it is stale; true when it did. Call under the sync lock.
    func removeIfStale(_ lock: String) throws(EntitlementError) -> Bool {
        guard let status = try GitFiles.system.status(lock), status.st_mode & S_IFMT == S_IFREG else { return false }
        let age = now().timeIntervalSince1970 - Double(status.st_mtim.tv_sec)
        guard age > store.lockTimeout, !Self.gitIsRunning(in: repository) else { return false }
        try GitFiles.remove(lock)
        return true
    }

    /// The error for a lock that is not (yet) stale: which file, and what to do.
    func lockError(_ lock: String, operation: String) -> EntitlementError {
        .git(message: "git \(operation) failed in \(repository.root): git's lock \(lock) exists",
             hint: "This is a problem of this machine, not of the remote; your commits are kept. A git process is using this repository, or one was killed and left the lock. When no git runs here, remove the file (rm '\(lock)') and sync again; the tool removes it by itself once it is older than the lock timeout (\(formatSeconds(store.lockTimeout)) s) and no git process runs in the store.")
    }

    /// True when a process named `git` has its working folder in this store (a person's own
    /// `git fetch` or `git gc`): its locks are live.
    static func gitIsRunning(in repository: GitRepository) -> Bool {
        guard let processes = try? GitFiles.list("/proc") else { return false }
        for pid in processes where pid.allSatisfy(\.isNumber) {
            guard let comm = try? GitFiles.read("/proc/\(pid)/comm"), String(decoding: comm, as: UTF8.self).hasPrefix("git") else { continue }
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = (try? systemCall("readlink") { Int32(readlink("/proc/\(pid)/cwd", &buffer, buffer.count - 1)) }) ?? -1
            guard count > 0 else { continue }
            let cwd = String(decoding: buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if cwd == repository.root || cwd.hasPrefix(repository.root + "/") { return true }
        }
        return false
    }
}
