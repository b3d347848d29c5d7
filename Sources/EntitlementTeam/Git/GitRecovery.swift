import EntitlementModel

/// Finishes what a killed run left in a team store, before the next locked operation.
///
/// Runs under the store lock, so every git process the tool itself started is gone:
/// a leftover `index.lock` is stale. A mutation's journal is committed with the message
/// it recorded; an interrupted `sync` is rolled back to HEAD (the working tree was clean
/// when it started), and the next `sync` simply does it again.
struct GitRecovery {
    let repository: GitRepository

    var journalPath: String { "\(repository.gitDirectory)/entitlement/journal" }
    var syncMarkerPath: String { "\(repository.gitDirectory)/entitlement/sync-in-progress" }

    /// True when there is something to finish (two stats when there is not).
    var isNeeded: Bool { GitFiles.exists(journalPath) || GitFiles.exists(syncMarkerPath) }

    func recover() throws(EntitlementError) {
        guard isNeeded else { return }
        try GitFiles.remove("\(repository.gitDirectory)/index.lock")
        if let bytes = try GitFiles.read(journalPath) {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count >= 3 {
                let summary = JournalLine.decode(lines[0]), actor = JournalLine.decode(lines[1])
                let paths = lines.dropFirst(2).filter { !$0.isEmpty }.map(JournalLine.decode)
                try GitCommitter(repository: repository).commit(paths: paths, message: summary, author: GitIdentity(actor: actor))
            }
            try GitFiles.remove(journalPath)
        }
        if GitFiles.exists(syncMarkerPath) {
            try repository.check(["reset", "--hard", "--quiet", "HEAD"])
            try GitIndex.forget(repository)
            try GitFiles.remove(syncMarkerPath)
        }
    }
}
