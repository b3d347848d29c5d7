import EntitlementBasics
import EntitlementModel

/// Finishes what a killed run left in a team store, before the next locked operation.
///
/// Runs under the store lock, so every git process the tool itself started is gone: git's
/// locks, the merge driver's copies and half-written objects they left are stale
/// (`GitStaleFiles`). A mutation's journal is committed with the message it recorded; an
/// interrupted `sync` merge is rolled back to HEAD (the working tree was clean when it
/// started), and the next `sync` simply does it again.
struct GitRecovery {
    let repository: GitRepository

    var journalPath: String { "\(repository.gitDirectory)/entitlement/journal" }
    var syncMarkerPath: String { "\(repository.gitDirectory)/entitlement/sync-in-progress" }
    /// Written before the tool runs git processes that take git's local locks outside a
    /// journal (sync's refresh and merge), removed after: its presence means one was killed.
    var localGitMarkerPath: String { "\(repository.gitDirectory)/entitlement/local-git-running" }
    /// The same for the network (fetch, push), under the sync lock.
    var remoteGitMarkerPath: String { "\(repository.gitDirectory)/entitlement/remote-git-running" }

    /// True when there is something to finish (three stats when there is not).
    var isNeeded: Bool { GitFiles.exists(journalPath) || GitFiles.exists(syncMarkerPath) || GitFiles.exists(localGitMarkerPath) }

    func recover() throws(EntitlementError) {
        guard isNeeded else { return }
        try GitStaleFiles.removeLocalLocks(repository)
        try GitStaleFiles.removeMergeCopies(repository)
        if let bytes = try GitFiles.read(journalPath) {
            try GitStaleFiles.removeStagedObjects(repository)
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count >= 3 {
                let summary = JournalLine.decode(lines[0]), actor = JournalLine.decode(lines[1])
                let paths = lines.dropFirst(2).filter { !$0.isEmpty }.map(JournalLine.decode)
                try GitCommitter(repository: repository).commit(paths: paths, message: summary, author: GitIdentity(actor: actor))
            }
            try GitFiles.remove(journalPath)
        }
        if GitFiles.exists(syncMarkerPath) {
            // An index an earlier version wrote is made one git's reset reads safely first.
            try? SplitIndexUpdate.convertNamedEntries(in: repository)
            try repository.check(["reset", "--hard", "--quiet", "HEAD"])
            try GitIndex.forget(repository)
            try GitFiles.remove(syncMarkerPath)
        }
        try GitFiles.remove(localGitMarkerPath)
    }

    /// Under the sync lock: the locks a killed fetch or push left.
    func recoverNetwork() throws(EntitlementError) {
        guard GitFiles.exists(remoteGitMarkerPath) else { return }
        try GitStaleFiles.removeRemoteLocks(repository)
        try GitFiles.remove(remoteGitMarkerPath)
    }

    /// Runs `body` with `marker` present, so a kill in between is recovered from next time.
    func marking<T>(_ marker: String, _ body: () throws(EntitlementError) -> T) throws(EntitlementError) -> T {
        try mark(marker)
        let value = try body()
        try GitFiles.remove(marker)
        return value
    }

    /// Writes `marker`, for work whose end is not one closure (`marking` for the rest).
    func mark(_ marker: String) throws(EntitlementError) {
        try GitFiles.makeDirectory(PathName.directory(of: marker))
        try GitFiles.writeAtomically(Array("running\n".utf8), to: marker, durable: false)
    }
}
