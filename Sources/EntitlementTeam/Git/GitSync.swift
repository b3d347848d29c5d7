import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `sync`: fetch, check what arrives, merge through git (so the merge driver runs), push;
/// a push that loses a race fetches, merges and tries again, a bounded number of times.
package struct GitSync {
    let store: EntitlementStore
    let repository: GitRepository
    var pullOnly: Bool

    package init(store: EntitlementStore, repository: GitRepository, pullOnly: Bool) {
        self.store = store
        self.repository = repository
        self.pullOnly = pullOnly
    }
    static let remote = "origin"
    static let maximumAttempts = 5

    package struct Report: Equatable {
        package var received = 0
        package var sent = 0
        package var attempts = 0
    }

    package func run() throws(EntitlementError) -> Report {
        let branch = try repository.check(["symbolic-ref", "--short", "HEAD"]).trimmingWhitespace
        var report = Report()
        while report.attempts < Self.maximumAttempts {
            report.attempts += 1
            try fetch()
            let remoteRef = "refs/remotes/\(Self.remote)/\(branch)"
            let hasRemote = try repository.run(["rev-parse", "--verify", "--quiet", remoteRef]).succeeded
            let head = try StoreLock(path: "\(store.root)/\(EntitlementStore.lockFileName)", timeout: store.lockTimeout)
                .withLock { () throws(EntitlementError) -> String in
                    try GitRecovery(repository: repository).recover()
                    try GitIndex.refresh(repository)
                    if hasRemote { report.received += try merge(remoteRef) }
                    return try repository.check(["rev-parse", "HEAD"]).trimmingWhitespace
                }
            if pullOnly { return report }
            let ahead = hasRemote ? try count("\(remoteRef)..\(head)") : try count(head)
            if ahead == 0 { return report }
            let push = try repository.run(["push", "--quiet", Self.remote, "\(head):refs/heads/\(branch)"])
            if push.succeeded {
                report.sent += ahead
                return report
            }
            let message = push.errorText
            guard message.contains("rejected") || message.contains("fetch first") || message.contains("non-fast-forward") else {
                throw .remoteUnavailable(remote: Self.remote, detail: GitRepository.firstLines(message, limit: 2))
            }
        }
        throw .git(message: "sync gave up after \(Self.maximumAttempts) attempts: others kept pushing first",
                   hint: "Your commits are kept; run 'entitlement sync' again.")
    }

    private func fetch() throws(EntitlementError) {
        let result = try repository.run(["fetch", "--quiet", Self.remote])
        guard result.succeeded else {
            throw .remoteUnavailable(remote: Self.remote, detail: GitRepository.firstLines(result.errorText, limit: 2))
        }
    }

    private func count(_ range: String) throws(EntitlementError) -> Int {
        Int(try repository.check(["rev-list", "--count", range]).trimmingWhitespace) ?? 0
    }

    /// Merges `remoteRef` into HEAD; returns how many commits arrived. Under the store lock.
    private func merge(_ remoteRef: String) throws(EntitlementError) -> Int {
        let incoming = try count("HEAD..\(remoteRef)")
        guard incoming > 0 else { return 0 }
        let dirty = try repository.check(["diff-index", "--name-only", "HEAD", "--"]).split(separator: "\n")
        guard dirty.isEmpty else {
            throw .git(message: "\(store.root) has uncommitted changes: \(dirty.prefix(3).joined(separator: ", "))",
                       hint: "Commit them ('git -C STORE commit -a') or undo them, then sync again.")
        }
        try IncomingCheck(store: store, repository: repository).verify(remoteRef)
        let marker = GitRecovery(repository: repository).syncMarkerPath
        try GitFiles.makeDirectory(PathName.directory(of: marker))
        try GitFiles.writeAtomically(Array("\(remoteRef)\n".utf8), to: marker, durable: store.durable)
        var environment: [String: String] = [:]
        if try repository.userIdentity() == nil {
            // A merge commit needs a committer; a machine without one (a cron job) names the tool.
            for key in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { environment[key] = "entitlement sync" }
            for key in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { environment[key] = "" }
        }
        let driver = "merge.entitlement.driver=\(GitSetup.driverCommand(environment: repository.environment))"
        let result = try repository.run(["-c", driver, "merge", "--quiet", "--no-edit", "-m", "sync: merge \(remoteRef.split(separator: "/").suffix(2).joined(separator: "/"))", remoteRef],
                                        extraEnvironment: environment)
        if !result.succeeded {
            let conflicted = (try? repository.check(["diff", "--name-only", "--diff-filter=U"]))?.split(separator: "\n").map(String.init) ?? []
            _ = try? repository.run(["merge", "--abort"])
            try GitRecovery(repository: repository).recover()
            let files = conflicted.isEmpty ? GitRepository.firstLines(result.errorText + result.output) : conflicted.joined(separator: ", ")
            throw .git(message: "cannot merge what others changed: \(files)",
                       hint: "Nothing was merged and your commits are kept. " + GitRepository.firstLines(result.errorText, limit: 3))
        }
        try GitFiles.remove(marker)
        return incoming
    }
}
