import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `sync`: fetch, check what arrives, merge through git (so the merge driver runs), push;
/// a push that loses a race fetches, merges and tries again, a bounded number of times.
///
/// The whole run holds the sync lock (`.git/entitlement/sync.lock`), so the tool's fetches and
/// pushes never overlap and the locks a killed one left can be removed; the fetch and the
/// merge also hold the store lock, so the check for uncommitted edits runs beside the fetch. Each network step is bounded by `timeout` (exit 6 when it fires).
package struct GitSync {
    let store: EntitlementStore
    let repository: GitRepository
    var pullOnly: Bool
    /// `--allow-deletions`: a push that removes customers' profiles may merge.
    package var allowDeletions = false
    /// The merge commit's author (`--actor`, `$ENTITLEMENT_ACTOR`, git's user, the login name).
    package var actor: String = "entitlement sync"
    /// Seconds each fetch or push may take (`--timeout`).
    package var timeout: Double = GitSync.defaultTimeout
    /// The clock a stale git lock's age is judged by.
    package var now: @Sendable () -> Date = { Date() }

    package init(store: EntitlementStore, repository: GitRepository, pullOnly: Bool) {
        self.store = store
        self.repository = repository
        self.pullOnly = pullOnly
    }
    static let remote = "origin"
    static let maximumAttempts = 5
    package static let defaultTimeout: Double = 120

    package struct Report: Equatable {
        package var received = 0
        package var sent = 0
        package var attempts = 0
        /// Customers' profile files the merged commits removed (`--allow-deletions`).
        package var removedProfiles: [String] = []
        /// What the merges decided that a person should review (`MergeReview`).
        package var reviews: [MergeReview] = []
    }

    var syncLockPath: String { "\(repository.gitDirectory)/entitlement/sync.lock" }

    package func run() throws(EntitlementError) -> Report {
        try GitFiles.makeDirectory(PathName.directory(of: syncLockPath))
        return try StoreLock(path: syncLockPath, timeout: store.lockTimeout).withLock { () throws(EntitlementError) -> Report in
            try GitRecovery(repository: repository).recoverNetwork()
            try GitSetup.upgradeIfNeeded(repository)
            return try exchange()
        }
    }

    private func exchange() throws(EntitlementError) -> Report {
        let branch = try repository.check(["symbolic-ref", "--short", "HEAD"]).trimmingWhitespace
        var report = Report()
        let merger = GitSyncMerge(store: store, repository: repository, allowDeletions: allowDeletions, actor: actor)
        while report.attempts < Self.maximumAttempts {
            report.attempts += 1
            let remoteRef = "refs/remotes/\(Self.remote)/\(branch)"
            var hasRemote = false
            // The store lock is held from before the fetch, so the check for uncommitted edits
            // runs while the fetch waits on the network (`GitSyncMerge.fetchAndMergeLocked`).
            let head = try merger.fetchAndMergeLocked({ () throws(EntitlementError) -> String? in
                try network(["fetch", "--quiet", Self.remote])
                hasRemote = try repository.run(["rev-parse", "--verify", "--quiet", remoteRef]).succeeded
                return hasRemote ? remoteRef : nil
            }, into: &report)
            if pullOnly { return report }
            let ahead = hasRemote ? try count("\(remoteRef)..\(head)") : try count(head)
            if ahead == 0 { return report }
            let push = try network(["push", "--quiet", Self.remote, "\(head):refs/heads/\(branch)"], rejectionIsFine: true)
            if push.succeeded {
                report.sent += ahead
                try trackRemoteBranch(branch)
                return report
            }
        }
        throw .git(message: "sync gave up after \(Self.maximumAttempts) attempts: others kept pushing first",
                   hint: "Your commits are kept; run 'entitlement sync' again.")
    }

    /// Runs a fetch or push, within the time-out. A failure of the remote is exit 6; a failure
    /// on this machine (a lock, a full disk, permissions) is exit 4, never 6. With
    /// `rejectionIsFine`, a push that lost a race is returned for the caller to retry.
    @discardableResult
    private func network(_ arguments: [String], rejectionIsFine: Bool = false) throws(EntitlementError) -> Subprocess.Result {
        let recovery = GitRecovery(repository: repository)
        let result = try recovery.marking(recovery.remoteGitMarkerPath) { () throws(EntitlementError) in
            try repository.run(arguments, timeout: timeout)
        }
        if result.succeeded { return result }
        if result.timedOut {
            throw .remoteUnavailable(remote: Self.remote, detail: "git \(arguments[0]) did not finish within \(formatSeconds(timeout)) s (--timeout)")
        }
        var message = result.errorText
        // A lock a git process killed outside the tool left: removed when stale, then once again.
        if let lock = lockNamed(in: message) {
            guard try removeIfStale(lock) else { throw lockError(lock, operation: arguments[0]) }
            let again = try recovery.marking(recovery.remoteGitMarkerPath) { () throws(EntitlementError) in
                try repository.run(arguments, timeout: timeout)
            }
            if again.succeeded { return again }
            message = again.errorText
        }
        if rejectionIsFine, message.contains("rejected") || message.contains("fetch first") || message.contains("non-fast-forward") {
            return result
        }
        if Self.isLocalFailure(message) {
            throw .git(message: "git \(arguments[0]) failed in \(repository.root): \(GitRepository.firstLines(message, limit: 2))",
                       hint: "This is a problem of this machine, not of the remote; your commits are kept.")
        }
        throw .remoteUnavailable(remote: Self.remote, detail: GitRepository.firstLines(message, limit: 2))
    }

    /// Git's messages for failures in the local repository rather than on the way to the remote.
    static func isLocalFailure(_ message: String) -> Bool {
        ["cannot lock ref", ".lock': File exists", "Unable to create", "unable to write", "No space left", "insufficient permission",
         "not a git repository", "unable to update local ref", "bad object", "Read-only file system"].contains { message.contains($0) }
    }

    /// After a first push from a store made with `init --git`: the branch tracks the remote's,
    /// so a plain `git pull` knows what to merge (a clone has this from git).
    private func trackRemoteBranch(_ branch: String) throws(EntitlementError) {
        guard try repository.config("branch.\(branch).remote") == nil else { return }
        try repository.check(["config", "branch.\(branch).remote", Self.remote])
        try repository.check(["config", "branch.\(branch).merge", "refs/heads/\(branch)"])
    }

    private func count(_ range: String) throws(EntitlementError) -> Int {
        Int(try repository.check(["rev-list", "--count", range]).trimmingWhitespace) ?? 0
    }
}
