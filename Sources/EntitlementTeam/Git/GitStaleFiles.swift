import Glibc
import EntitlementModel
import EntitlementStore

/// Removes what a killed git process of the tool's own can leave in a team store: git's lock
/// files, the merge driver's `.merge_file_*` copies in the working tree, and the tool's
/// half-written loose objects and packs.
///
/// Safe only while every git process the tool starts is excluded: the local scope (HEAD, the
/// index, branches) under the store lock, which every tool commit and merge holds; the remote
/// scope (remote-tracking refs, `FETCH_HEAD`, `packed-refs`) under the sync lock as well,
/// which every fetch and push holds. A `git gc` running in the background (its `gc.pid` names a
/// live process) may hold ref locks of its own, so refs are then left alone.
enum GitStaleFiles {
    /// Top-level locks a commit, `update-ref` or merge can leave.
    static let localLocks = ["index.lock", "HEAD.lock", "ORIG_HEAD.lock", "MERGE_HEAD.lock", "AUTO_MERGE.lock", "MERGE_MSG.lock", "config.lock"]
    /// Top-level locks a fetch or push can leave.
    static let remoteLocks = ["FETCH_HEAD.lock", "packed-refs.lock", "shallow.lock"]
    /// The prefix of the loose objects and packs `ObjectWriter` stages (git's `fsck` ignores `tmp_obj_*`).
    static let objectStagingPrefix = "tmp_obj_entitlement-"

    /// Removes the stale locks of the local scope. Call under the store lock.
    static func removeLocalLocks(_ repository: GitRepository) throws(EntitlementError) {
        let git = repository.gitDirectory
        for name in localLocks { try GitFiles.remove("\(git)/\(name)") }
        if !isGarbageCollecting(git) { try removeLocks(under: "\(git)/refs/heads") }
    }

    /// Removes the stale locks of the remote scope. Call under the sync lock.
    static func removeRemoteLocks(_ repository: GitRepository) throws(EntitlementError) {
        let git = repository.gitDirectory
        let gcRunning = isGarbageCollecting(git)
        for name in remoteLocks where !(gcRunning && name == "packed-refs.lock") { try GitFiles.remove("\(git)/\(name)") }
        if !gcRunning { try removeLocks(under: "\(git)/refs/remotes") }
    }

    /// Removes the merge driver's leftovers at the top of the working tree (`.merge_file_XXXXXX`
    /// and their staged replacements); git makes them there while a merge runs.
    static func removeMergeCopies(_ repository: GitRepository) throws(EntitlementError) {
        for name in try GitFiles.list(repository.root) where name.hasPrefix(".merge_file_") {
            try GitFiles.remove("\(repository.root)/\(name)")
        }
    }

    /// Removes objects the tool began to write and never renamed into place (a killed commit).
    static func removeStagedObjects(_ repository: GitRepository) throws(EntitlementError) {
        let objects = "\(repository.gitDirectory)/objects"
        for folder in try GitFiles.list(objects) where folder.count == 2 || folder == "pack" {
            guard let names = try? GitFiles.list("\(objects)/\(folder)") else { continue }
            for name in names where name.hasPrefix(objectStagingPrefix) { try GitFiles.remove("\(objects)/\(folder)/\(name)") }
        }
    }

    /// `*.lock` files below `directory` (which may be missing), at any depth; links are not followed.
    private static func removeLocks(under directory: String) throws(EntitlementError) {
        guard let names = try? GitFiles.list(directory) else { return }
        for name in names {
            let path = "\(directory)/\(name)"
            if name.hasSuffix(".lock") {
                try GitFiles.remove(path)
            } else if let status = try GitFiles.system.status(path), status.st_mode & S_IFMT == S_IFDIR {
                try removeLocks(under: path)
            }
        }
    }

    /// True while `.git/gc.pid` names a live process of this machine.
    private static func isGarbageCollecting(_ git: String) -> Bool {
        guard let bytes = try? GitFiles.read("\(git)/gc.pid"),
              let pid = Int32(String(decoding: bytes, as: UTF8.self).split(separator: " ").first ?? "") else { return false }
        return GitFiles.system.processExists(pid)
    }
}
