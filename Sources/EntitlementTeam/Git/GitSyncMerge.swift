import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `sync`'s merge, under the store lock: what arrives is inspected first (`IncomingCheck`),
/// git merges the two trees without touching the index or the files (`merge-tree`, so the
/// merge driver runs), the merged store files are read from that tree and checked, and only
/// then does the actor commit the merge, which one fast-forward checks out (the tool's own,
/// `GitFastForward`, or git's `merge --ff-only` for what it leaves to git). A result that
/// fails the check is dropped: never committed, so never pushed.
struct GitSyncMerge {
    let store: EntitlementStore
    let repository: GitRepository
    var allowDeletions: Bool
    var actor: String

    /// Under the store lock, taken before the fetch: recovers, catches the index up, then runs
    /// `fetch` (which returns the remote branch to merge, or nil when there is none) while git
    /// checks on another thread that nothing uncommitted is in the store (`UncommittedCheck`),
    /// and merges what arrived. Returns HEAD.
    func fetchAndMergeLocked(_ fetch: () throws(EntitlementError) -> String?, into report: inout GitSync.Report) throws(EntitlementError) -> String {
        let recovery = GitRecovery(repository: repository)
        return try StoreLock(path: "\(store.root)/\(EntitlementStore.lockFileName)", timeout: store.lockTimeout)
            .withLock { () throws(EntitlementError) -> String in
                try recovery.recover()
                try recovery.marking(recovery.localGitMarkerPath) { () throws(EntitlementError) in try GitIndex.refresh(repository) }
                // A kill while the check runs is recovered from like any local git run's.
                try recovery.mark(recovery.localGitMarkerPath)
                let check = UncommittedCheck(repository)
                defer { check.abandon() }
                do throws(EntitlementError) {
                    if let remoteRef = try fetch() { try merge(remoteRef, check: check, into: &report) }
                } catch {
                    // A failure is no kill: every git run of the tool's has ended (a check still
                    // running is killed, and then the marker stays). Left, the marker would have
                    // the next command remove locks that a person's git may hold by then.
                    if check.abandon() { try? GitFiles.remove(recovery.localGitMarkerPath) }
                    throw error
                }
                // A check that had to be killed leaves the marker for the next recovery, to be safe.
                if check.abandon() { try GitFiles.remove(recovery.localGitMarkerPath) }
                return try repository.check(["rev-parse", "HEAD"]).trimmingWhitespace
            }
    }

    private func merge(_ remoteRef: String, check: UncommittedCheck, into report: inout GitSync.Report) throws(EntitlementError) {
        // HEAD as this merge sees it, used throughout: a person's `git commit` meanwhile (git's
        // own commands do not take the store lock) makes the fast-forward's ref update fail
        // rather than leave their commit off the branch.
        let head = try repository.check(["rev-parse", "HEAD"]).trimmingWhitespace
        let incoming = Int(try repository.check(["rev-list", "--count", "\(head)..\(remoteRef)"]).trimmingWhitespace) ?? 0
        guard incoming > 0 else { return }
        try check.requireClean(store.root)
        let summary = try IncomingCheck(store: store, repository: repository, allowDeletions: allowDeletions).verify(remoteRef)
        _ = try MergeReviewLog.take(gitDirectory: repository.gitDirectory)  // left by an earlier `git pull`
        let recovery = GitRecovery(repository: repository)
        let marker = recovery.syncMarkerPath
        try GitFiles.makeDirectory(PathName.directory(of: marker))
        try GitFiles.writeAtomically(Array("\(remoteRef)\n".utf8), to: marker, durable: store.durable)
        // Others' new profiles join the kept name list before they arrive (a name listed whose
        // profile is missing is never suggested), so no write has to list every folder again.
        ProfileNameIndex(store: store).noteArrived(summary.addedProfiles)
        // Behind only: the remote's commit as it is. Diverged: the merge is made from the two
        // trees (`merge-tree`, so the driver runs for files both sides changed), checked, and
        // committed from that tree, never from the index; either way one fast-forward then
        // brings the working tree and the index to it.
        var target = remoteRef
        if try !repository.run(["merge-base", "--is-ancestor", head, remoteRef]).succeeded {
            let tree = try mergedTree(head, remoteRef)
            try checkMergedFiles(tree, head, remoteRef)
            target = try commitMerge(tree, head, remoteRef)
        }
        try fastForward(from: head, to: target, remoteRef: remoteRef, changedPaths: summary.changedPaths, marker: marker)
        try GitFiles.remove(marker)
        report.received += incoming
        report.removedProfiles += summary.removedProfiles
        report.reviews += try MergeReviewLog.take(gitDirectory: repository.gitDirectory)
    }

    /// The working tree, HEAD and the index brought from `head` to `target`, a descendant of
    /// it: by the tool for the changes it takes (`GitFastForward`), else by `git merge --ff-only`.
    private func fastForward(from head: String, to target: String, remoteRef: String, changedPaths: Int, marker: String) throws(EntitlementError) {
        let shownRef = remoteRef.split(separator: "/").suffix(2).joined(separator: "/")
        let fastForward = GitFastForward(store: store, repository: repository)
        let plan: GitFastForward.Plan?
        do {
            plan = try fastForward.plan(from: head, to: target)
        } catch {
            // Nothing was written: an edit found here is kept (recovery's `reset --hard` would not keep it).
            try GitFiles.remove(marker)
            throw error
        }
        if let plan {
            let moved: Bool
            do { moved = try fastForward.moveHead(plan, message: "sync: fast-forward to \(shownRef)") } catch {
                try GitFiles.remove(marker)  // nothing was written
                throw error
            }
            guard moved else {
                try GitFiles.remove(marker)
                throw .git(message: "\(store.root)'s branch moved while sync merged (a commit of yours?); nothing was merged",
                           hint: "Your commits are kept. Sync again to merge them with what arrived.")
            }
            // HEAD is at the target: a failure from here on is finished by recovery's `reset
            // --hard`, which writes what is left (the tree was clean) and leaves nothing behind.
            do { try fastForward.writeFiles(plan) } catch {
                try abort()
                throw error
            }
            return
        }
        let result = try repository.run(foldingIndex(changedPaths) + ["merge", "--quiet", "--ff-only", target])
        guard result.succeeded else {
            // Git refuses before it writes anything when a file it would replace was edited
            // (after the check) or its index is locked: then nothing is undone, so the edit and
            // the lock stay. Any other failure is undone by recovery.
            let refused = ["would be overwritten", "index.lock"].contains { result.errorText.contains($0) }
            if refused, (try? repository.check(["rev-parse", "HEAD"]).trimmingWhitespace) == head { try GitFiles.remove(marker) } else { try abort() }
            throw .git(message: "cannot bring what others changed into \(store.root): \(GitRepository.firstLines(result.errorText + result.output))",
                       hint: "Nothing was merged and your commits are kept.")
        }
        // The positions of a shared index git may just have written, so that the next commit
        // does not read all of it (best effort: the commit makes them otherwise).
        _ = try? SharedIndexPositions.prepare(in: repository)
    }

    /// The most entries the split index's small file may hold after a merge (see `foldingIndex`).
    static let largestMergedSplitFile = 128

    /// Git options that make the merge write a new shared index, when the small file would
    /// otherwise hold more than `largestMergedSplitFile` entries.
    ///
    /// Git writes each path a checkout changed into the small file as a new entry, and on every
    /// later read inserts each such entry into the array of all entries, moving the rest of it:
    /// at 1M profiles, after a sync of 1,000 profiles, every git command that read the index
    /// (`git status`, the next sync's `diff-tree`) spent 2 s moving memory until the index was
    /// folded. Folding during the merge costs one write of the shared index (240 MB at 1M) and
    /// no extra read. The shared index replaced is deleted when it is ten minutes old rather
    /// than after git's two weeks, so a store synced every few minutes does not keep hundreds
    /// of them; a person's git reading the old one at that moment would fail once and succeed
    /// when run again.
    private func foldingIndex(_ changedPaths: Int) -> [String] {
        let held = SplitIndexFile.entryCount(ofIndexAt: "\(repository.gitDirectory)/index")
        guard held + changedPaths > Self.largestMergedSplitFile else { return [] }
        return ["-c", "splitIndex.maxPercentChange=0", "-c", "splitIndex.sharedIndexExpire=10.minutes.ago"]
    }

    /// The merge of HEAD and `remoteRef` as a tree, made without touching the index or the
    /// files; the merge driver runs for each file both sides changed.
    private func mergedTree(_ head: String, _ remoteRef: String) throws(EntitlementError) -> String {
        let driver = "merge.entitlement.driver=\(GitSetup.driverCommand(environment: repository.environment))"
        // What the merge itself records (a voided duplicate) names the person who synced.
        let result = try repository.run(["-c", driver, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", head, remoteRef],
                                        extraEnvironment: [MergeStamp.actorVariable: actor])
        let fields = result.stdout.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard result.succeeded, let tree = fields.first, tree.utf8.count == 40 else {
            try abort()
            let conflicted = result.status == 1 ? fields.dropFirst().filter { !$0.isEmpty } : []
            let files = conflicted.isEmpty ? GitRepository.firstLines(result.errorText + result.output) : conflicted.joined(separator: ", ")
            throw .git(message: "cannot merge what others changed: \(files)",
                       hint: "Nothing was merged and your commits are kept. " + GitRepository.firstLines(result.errorText, limit: 3))
        }
        return tree
    }

    /// Every store file the merge changed, as the merged tree holds it, must be one the tool reads.
    private func checkMergedFiles(_ tree: String, _ head: String, _ remoteRef: String) throws(EntitlementError) {
        let changed = try repository.check(["diff-tree", "-r", "--name-only", "-z", "--no-renames", "--diff-filter=AMT", head, tree, "--"])
            .split(separator: "\0").map(String.init)
            .filter { $0 == EntitlementStore.configFileName || ($0.hasPrefix("\(EntitlementStore.profilesDirectory)/") && $0.hasSuffix(".json")) }
        guard !changed.isEmpty else { return }
        let result = try repository.run(["cat-file", "--batch", "--buffer"], input: Array(changed.map { "\(tree):\($0)\n" }.joined().utf8))
        guard result.succeeded else { throw .git(message: "cannot read the merge's result: \(GitRepository.firstLines(result.errorText))", hint: nil) }
        for (path, object) in zip(changed, GitBatchOutput.parse(result.stdout)) {
            guard let object else { throw .git(message: "the merge's result has no \(path)", hint: nil) }
            do throws(EntitlementError) {
                try IncomingCheck.validate(path: path, content: object.content, shown: "merged \(path)")
            } catch {
                try abort()
                throw .git(message: "the merged \(path) is not a file this tool reads; nothing was committed or pushed",
                           hint: "\(error.description). Your commits are kept; report this with the two versions (git show HEAD:\(path), git show \(remoteRef):\(path)).")
            }
        }
    }

    /// The merge commit of `tree`, authored by the actor; committed by git's user, or the
    /// actor when the machine has none (a cron job).
    private func commitMerge(_ tree: String, _ head: String, _ remoteRef: String) throws(EntitlementError) -> String {
        let author = GitIdentity(actor: actor)
        var environment = ["GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email]
        if try repository.userIdentity() == nil {
            environment["GIT_COMMITTER_NAME"] = author.name
            environment["GIT_COMMITTER_EMAIL"] = author.email
        }
        let message = "sync: merge \(remoteRef.split(separator: "/").suffix(2).joined(separator: "/"))\n"
        return try repository.check(["commit-tree", tree, "-p", head, "-p", remoteRef], input: Array(message.utf8), extraEnvironment: environment)
            .trimmingWhitespace
    }

    /// Back to HEAD, nothing left behind: a merge that must not be committed, or a
    /// fast-forward that did not finish.
    private func abort() throws(EntitlementError) {
        try GitRecovery(repository: repository).recover()
    }
}
