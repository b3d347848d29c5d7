import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `sync`'s fast-forward, at the cost of what changed rather than of the store's size.
///
/// `git merge --ff-only` first brings the stat data of every index entry up to date, an
/// `lstat` of each file in the store (2.5 s at 1M profiles, after `git status` had just done
/// the same), then checks out and writes the whole index (docs/performance.md, "Team store at
/// 1M"). The tool instead takes the paths from the two trees (`diff-tree`), checks that each
/// file it replaces still holds HEAD's content (a blob id computed from the file), takes git's
/// `index.lock` and moves HEAD's branch (only if it is still where the merge saw it), then
/// writes the new contents as the store writes any file (staged, fsynced in a durable store,
/// renamed into place, the store's modes) and brings the index up to date for those paths alone (`GitIndex`, the small file of
/// the split index). From the moment HEAD moves, a failure or a kill is finished by recovery's
/// `reset --hard` (`GitRecovery`, sync's marker), which writes what is left: the tree was clean.
///
/// What this does not handle is left to git (`plan` returns nil, nothing changed): a deletion
/// (the index update would read the whole index anyway), a path that is not a plain file on
/// either side, more changed paths than a commit's index update takes, or more new paths than
/// the split index's small file should hold as named entries (git then folds the index).
struct GitFastForward {
    let store: EntitlementStore
    let repository: GitRepository

    /// The most paths taken here; more go to git, whose index update folds them at once.
    var largestChange = SplitIndexUpdate.Limits.standard.splitFile / 256
    /// The most named entries the small file may hold after: each new path is one, which git
    /// inserts into its array of all entries, moving the rest, on every read of the index
    /// (`GitSyncMerge.largestMergedSplitFile`).
    var largestNamedEntries = GitSyncMerge.largestMergedSplitFile

    /// One path the fast-forward writes: its blob at HEAD (nil when new) and at the target.
    struct Change: Equatable {
        var path: String
        var oldID: String?
        var newID: String
    }

    /// What one fast-forward writes: each changed path with its new content.
    struct Plan {
        var head: String
        var target: String
        var changes: [Change]
        var contents: [[UInt8]]
    }

    /// The fast-forward from `head` to `target` (a descendant of it), read and checked with
    /// nothing changed: nil when git must do it; throws when a file it would replace no
    /// longer holds HEAD's content, or a file is where a new one would go.
    func plan(from head: String, to target: String) throws(EntitlementError) -> Plan? {
        guard let changes = Self.changes(try IncomingTree.between(head, target, in: repository)), changes.count <= largestChange else { return nil }
        let added = changes.filter { $0.oldID == nil }.count
        if added > 0 {
            // A small file only: an index that is not split yet (hundreds of MB at 1M) is git's to fold.
            let indexPath = "\(repository.gitDirectory)/index"
            guard let status = try GitFiles.system.status(indexPath), Int(status.st_size) <= SplitIndexUpdate.Limits.standard.splitFileRead,
                  let index = try GitFiles.read(indexPath).flatMap(SplitIndexFile.init),
                  index.named.count + added <= largestNamedEntries else { return nil }
        }
        try requireUnchanged(changes)
        // By id: the ref update and the check after it compare commits, not names.
        let targetID = try repository.check(["rev-parse", "--verify", "--quiet", "\(target)^{commit}"]).trimmingWhitespace
        return Plan(head: head, target: targetID, changes: changes, contents: try blobs(changes.map(\.newID)))
    }

    /// Takes git's `index.lock`, as git's own checkout does, then moves HEAD's branch from the
    /// plan's head to its target in one transaction, only if it is still at the head, with
    /// ORIG_HEAD and a reflog line as git's merge leaves them; without hooks (the tool's index
    /// hook would only skip itself). While HEAD is new and the files and index old, the lock
    /// keeps a person's git from committing that state (it would undo what arrived); after a
    /// kill, recovery removes it. Returns false, with the lock released and nothing changed,
    /// when the branch did not move; throws when the lock is held or git fails.
    func moveHead(_ plan: Plan, message: String) throws(EntitlementError) -> Bool {
        let lock = "\(repository.gitDirectory)/index.lock"
        do {
            let fd = try systemCall("open") { GitFiles.system.open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            GitFiles.system.closeQuietly(fd)
        } catch {
            throw .git(message: "cannot take git's index lock in \(repository.root): \(error.message)",
                       hint: "Nothing was merged. A git command of yours may be running (.git/index.lock); sync again when it is done.")
        }
        let update = "update HEAD \(plan.target) \(plan.head)\noption no-deref\nupdate ORIG_HEAD \(plan.head)\n"
        let result = try? repository.run(["-c", "core.hooksPath=/dev/null", "update-ref", "-m", message, "--stdin"], input: Array(update.utf8))
        // Whatever git said, HEAD decides: a ref update that took effect is finished.
        let now = try? repository.check(["rev-parse", "HEAD"]).trimmingWhitespace
        guard now == plan.target else {
            try GitFiles.remove(lock)
            guard now == plan.head else { return false }
            throw .git(message: "cannot move \(repository.root)'s branch to what arrived: \(GitRepository.firstLines(result?.errorText ?? "git did not run"))",
                       hint: "Nothing was merged and your commits are kept. A git command of yours may hold a lock; sync again.")
        }
        // The index is older than HEAD for these paths until `writeFiles` (`GitIndex`).
        try GitIndex.noteStale(plan.changes.map(\.path), in: repository, durable: store.durable)
        return true
    }

    /// Writes the plan's files (a durable store's fsynced, several at once), releases git's
    /// index lock and brings the index up to date for their paths.
    func writeFiles(_ plan: Plan) throws(EntitlementError) {
        let modes = store.newModes()
        try store.ensureDirectory(EntitlementStore.stagingDirectory, mode: modes.directory)
        let folders = Set(plan.changes.filter { $0.oldID == nil }.map { PathName.parent(of: $0.path) }).filter { !$0.isEmpty }
        for folder in folders.sorted() { try store.ensureDirectory(folder, mode: modes.directory) }
        let fileSystem = store.fileSystem, root = store.root, durable = store.durable
        let staging = "\(root)/\(EntitlementStore.stagingDirectory)"
        let outcomes = Parallel.map(Array(zip(plan.changes, plan.contents)), threshold: 16, chunkSize: 8, threads: Parallel.waitingWorkers) { item in
            Result { () throws(EntitlementError) -> SplitIndexUpdate.HashedFile? in
                let full = "\(root)/\(item.0.path)"
                try fileSystem.replace(full, with: item.1, stagingDirectory: staging, newFileMode: modes.file, durable: durable)
                return try fileSystem.status(full).map { SplitIndexUpdate.HashedFile(status: $0, id: item.0.newID) }
            }
        }
        var hashed: [String: SplitIndexUpdate.HashedFile] = [:]
        for (change, outcome) in zip(plan.changes, outcomes) { hashed[change.path] = try outcome.get() }
        // The files and HEAD agree now: the index may be taken by anyone, the tool first.
        try GitFiles.remove("\(repository.gitDirectory)/index.lock")
        // Best effort, as after a commit: a person's git holding index.lock leaves the paths
        // recorded, and the next command of the tool's (or the hooks) catches up.
        _ = try? GitIndex.refresh(repository, hashed: hashed)
    }

    /// The changes of `tree`, or nil when one is not a plain file added or modified.
    static func changes(_ tree: IncomingTree) -> [Change]? {
        var changes: [Change] = []
        for entry in tree.entries {
            guard entry.mode == StoreTreePolicy.regularFileMode, !entry.path.isEmpty else { return nil }
            switch entry.status {
            case "A": changes.append(Change(path: entry.path, oldID: nil, newID: entry.newID))
            case "M" where entry.oldMode == StoreTreePolicy.regularFileMode: changes.append(Change(path: entry.path, oldID: entry.oldID, newID: entry.newID))
            default: return nil
            }
        }
        return changes
    }

    /// Each file to be replaced holds HEAD's blob, and no other file is where a new one goes:
    /// what `git status` found before the fetch still holds (a person may have edited since).
    /// A file that already holds the new content is not an edit (a `git merge --ff-only`
    /// killed after writing it leaves a new file that recovery's `reset --hard` keeps).
    private func requireUnchanged(_ changes: [Change]) throws(EntitlementError) {
        var edited: [String] = []
        for change in changes {
            let full = "\(store.root)/\(change.path)"
            guard let file = try GitFiles.read(full) else {
                if change.oldID != nil || store.fileSystem.exists(full) { edited.append(change.path) }
                continue
            }
            let id = SHA1.objectID(type: "blob", content: file)
            if id != change.oldID, id != change.newID { edited.append(change.path) }
        }
        guard edited.isEmpty else {
            throw .git(message: "\(store.root) has uncommitted changes: \(edited.prefix(3).joined(separator: ", "))",
                       hint: "Nothing was merged. Commit them ('git -C STORE add' and 'commit') or undo them, then sync again.")
        }
    }

    /// The contents of `ids`, in order, from one `cat-file --batch`.
    private func blobs(_ ids: [String]) throws(EntitlementError) -> [[UInt8]] {
        let result = try repository.run(["cat-file", "--batch"], input: Array(ids.map { "\($0)\n" }.joined().utf8))
        let objects = GitBatchOutput.parse(result.stdout)
        guard result.succeeded, objects.count == ids.count else {
            throw .git(message: "cannot read what the fetch brought: \(GitRepository.firstLines(result.errorText))", hint: nil)
        }
        var contents: [[UInt8]] = []
        contents.reserveCapacity(ids.count)
        for (id, object) in zip(ids, objects) {
            guard let object, object.type == "blob" else { throw .git(message: "the fetch did not bring blob \(id)", hint: nil) }
            contents.append(object.content)
        }
        return contents
    }
}
