import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `sync`'s merge, under the store lock: what arrives is inspected first (`IncomingCheck`),
/// git merges without committing (so the merge driver runs), the merged store files are read
/// back from git's index and checked, and only then does the actor commit the merge.
/// A result that fails the check is aborted: never committed, so never pushed.
struct GitSyncMerge {
    let store: EntitlementStore
    let repository: GitRepository
    var allowDeletions: Bool
    var actor: String

    /// Recovers, catches the index up, merges `remoteRef` (when there is one); returns HEAD.
    func mergeLocked(_ remoteRef: String?, into report: inout GitSync.Report) throws(EntitlementError) -> String {
        let recovery = GitRecovery(repository: repository)
        return try StoreLock(path: "\(store.root)/\(EntitlementStore.lockFileName)", timeout: store.lockTimeout)
            .withLock { () throws(EntitlementError) -> String in
                try recovery.recover()
                try recovery.marking(recovery.localGitMarkerPath) { () throws(EntitlementError) in
                    try GitIndex.refresh(repository)
                    if let remoteRef { try merge(remoteRef, into: &report) }
                }
                return try repository.check(["rev-parse", "HEAD"]).trimmingWhitespace
            }
    }

    private func merge(_ remoteRef: String, into report: inout GitSync.Report) throws(EntitlementError) {
        let incoming = Int(try repository.check(["rev-list", "--count", "HEAD..\(remoteRef)"]).trimmingWhitespace) ?? 0
        guard incoming > 0 else { return }
        // A copied store (`cp -a`) has new inode numbers: without a refresh every file looks changed.
        _ = try repository.run(["update-index", "-q", "--refresh"])
        let dirty = try repository.check(["diff-index", "--name-only", "HEAD", "--"]).split(separator: "\n")
        guard dirty.isEmpty else {
            throw .git(message: "\(store.root) has uncommitted changes: \(dirty.prefix(3).joined(separator: ", "))",
                       hint: "Commit them ('git -C STORE commit -a') or undo them, then sync again.")
        }
        let summary = try IncomingCheck(store: store, repository: repository, allowDeletions: allowDeletions).verify(remoteRef)
        _ = try MergeReviewLog.take(gitDirectory: repository.gitDirectory)  // left by an earlier `git pull`
        let recovery = GitRecovery(repository: repository)
        let marker = recovery.syncMarkerPath
        try GitFiles.makeDirectory(PathName.directory(of: marker))
        try GitFiles.writeAtomically(Array("\(remoteRef)\n".utf8), to: marker, durable: store.durable)
        let driver = "merge.entitlement.driver=\(GitSetup.driverCommand(environment: repository.environment))"
        // What the merge itself records (a voided duplicate) names the person who synced.
        let result = try repository.run(["-c", driver, "merge", "--quiet", "--no-commit", "--no-edit", remoteRef],
                                        extraEnvironment: [MergeStamp.actorVariable: actor])
        if !result.succeeded {
            let conflicted = (try? repository.check(["diff", "--name-only", "--diff-filter=U"]))?.split(separator: "\n").map(String.init) ?? []
            try abort()
            let files = conflicted.isEmpty ? GitRepository.firstLines(result.errorText + result.output) : conflicted.joined(separator: ", ")
            throw .git(message: "cannot merge what others changed: \(files)",
                       hint: "Nothing was merged and your commits are kept. " + GitRepository.firstLines(result.errorText, limit: 3))
        }
        if GitFiles.exists("\(repository.gitDirectory)/MERGE_HEAD") {
            do throws(EntitlementError) {
                try checkMergedFiles()
            } catch {
                try abort()
                throw error
            }
            try commitMerge(remoteRef)
        }
        try GitFiles.remove(marker)
        report.received += incoming
        report.removedProfiles += summary.removedProfiles
        report.reviews += try MergeReviewLog.take(gitDirectory: repository.gitDirectory)
    }

    /// Every store file the merge changed, as git's index holds it, must be one the tool reads.
    private func checkMergedFiles() throws(EntitlementError) {
        let changed = try repository.check(["diff-index", "--cached", "--name-only", "-z", "--no-renames", "--diff-filter=AMT", "HEAD", "--"])
            .split(separator: "\0").map(String.init)
            .filter { $0 == EntitlementStore.configFileName || ($0.hasPrefix("\(EntitlementStore.profilesDirectory)/") && $0.hasSuffix(".json")) }
        guard !changed.isEmpty else { return }
        let result = try repository.run(["cat-file", "--batch"], input: Array(changed.map { ":\($0)\n" }.joined().utf8))
        guard result.succeeded else { throw .git(message: "cannot read the merge's result: \(GitRepository.firstLines(result.errorText))", hint: nil) }
        for (path, object) in zip(changed, GitBatchOutput.parse(result.stdout)) {
            guard let object else { throw .git(message: "the merge's result has no \(path)", hint: nil) }
            do throws(EntitlementError) {
                try IncomingCheck.validate(path: path, content: object.content, shown: "merged \(path)")
            } catch {
                throw .git(message: "the merged \(path) is not a file this tool reads; nothing was committed or pushed",
                           hint: "\(error.description). Your commits are kept; report this with the two versions (git show HEAD:\(path), git show MERGE_HEAD:\(path)).")
            }
        }
    }

    /// The merge commit, authored by the actor; committed by git's user, or the actor when
    /// the machine has none (a cron job).
    private func commitMerge(_ remoteRef: String) throws(EntitlementError) {
        let author = GitIdentity(actor: actor)
        var environment = ["GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email]
        if try repository.userIdentity() == nil {
            environment["GIT_COMMITTER_NAME"] = author.name
            environment["GIT_COMMITTER_EMAIL"] = author.email
        }
        let message = "sync: merge \(remoteRef.split(separator: "/").suffix(2).joined(separator: "/"))\n"
        try repository.check(["commit", "--quiet", "--no-verify", "-F", "-"], input: Array(message.utf8), extraEnvironment: environment)
    }

    /// Undoes a merge that must not be committed: back to HEAD, nothing left behind.
    private func abort() throws(EntitlementError) {
        _ = try? repository.run(["merge", "--abort"])
        try GitRecovery(repository: repository).recover()
    }
}
