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
/// file it replaces still holds HEAD's content (a blob id computed from the file), writes the
/// new contents as the store writes any file (staged, renamed into place, the store's modes),
/// moves HEAD, and brings the index up to date for those paths alone (`GitIndex`, the small
/// file of the split index). A kill anywhere in between leaves sync's marker, and recovery
/// goes back to HEAD with `reset --hard` (`GitRecovery`), as for git's own merge.
///
/// What this does not handle is left to git (`run` returns false, nothing changed): a
/// deletion (the index update would read the whole index anyway), a path that is not a plain
/// file on either side, more new paths than the split index's small file should hold, or more
/// changed paths than a commit's index update takes.
struct GitFastForward {
    let store: EntitlementStore
    let repository: GitRepository

    /// The most paths taken here; more go to git, whose index update folds them at once.
    var largestChange = SplitIndexUpdate.Limits.standard.splitFile / 256
    /// The most new paths taken here: each one git must insert into its array of all entries on
    /// every later read of a split index (`GitSyncMerge.largestMergedSplitFile`).
    var largestAddition = GitSyncMerge.largestMergedSplitFile

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
        let raw = try repository.check(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", head, target])
        guard let changes = Self.changes(fromRaw: Array(raw.utf8)), changes.count <= largestChange,
              changes.filter({ $0.oldID == nil }).count <= largestAddition else { return nil }
        try requireUnchanged(changes)
        return Plan(head: head, target: target, changes: changes, contents: try blobs(changes.map(\.newID)))
    }

    /// Writes the plan's files, moves HEAD's branch (only if it is still at the plan's head)
    /// and brings the index up to date for those paths. An error after the first file is
    /// written leaves the store for recovery (sync's marker, `reset --hard`).
    func apply(_ plan: Plan, message: String) throws(EntitlementError) {
        let modes = store.newModes()
        let staging = "\(store.root)/\(EntitlementStore.stagingDirectory)"
        try store.ensureDirectory(EntitlementStore.stagingDirectory, mode: modes.directory)
        try GitIndex.noteStale(plan.changes.map(\.path), in: repository, durable: store.durable)
        var hashed: [String: SplitIndexUpdate.HashedFile] = [:]
        for (change, content) in zip(plan.changes, plan.contents) {
            let directory = PathName.parent(of: change.path)
            if change.oldID == nil, !directory.isEmpty { try store.ensureDirectory(directory, mode: modes.directory, syncParents: false) }
            let full = "\(store.root)/\(change.path)"
            try store.fileSystem.replace(full, with: content, stagingDirectory: staging, newFileMode: modes.file, durable: false)
            if let status = try store.fileSystem.status(full) { hashed[change.path] = SplitIndexUpdate.HashedFile(status: status, id: change.newID) }
        }
        // One transaction, no hooks (the tool's index hook would only skip itself): the branch,
        // only if still at the plan's head, and ORIG_HEAD, as git's merge leaves it.
        let update = "update HEAD \(plan.target) \(plan.head)\noption no-deref\nupdate ORIG_HEAD \(plan.head)\n"
        try repository.check(["-c", "core.hooksPath=/dev/null", "update-ref", "-m", message, "--stdin"], input: Array(update.utf8))
        // Best effort, as after a commit: a person's git holding index.lock leaves the paths
        // recorded, and the next command of the tool's (or the hooks) catches up.
        _ = try? GitIndex.refresh(repository, hashed: hashed)
    }

    /// The paths `diff-tree --raw -z` lists, or nil when one is not a plain file added or
    /// modified (`:OLDMODE NEWMODE OLDID NEWID STATUS\0PATH\0`, repeated).
    static func changes(fromRaw bytes: [UInt8]) -> [Change]? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        var changes: [Change] = []
        var index = 0
        while index + 1 < fields.count {
            let header = fields[index].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            let path = String(decoding: fields[index + 1], as: UTF8.self)
            index += 2
            guard header.count == 5, header[1] == StoreTreePolicy.regularFileMode, !path.isEmpty else { return nil }
            switch header[4] {
            case "A": changes.append(Change(path: path, oldID: nil, newID: header[3]))
            case "M" where header[0] == ":\(StoreTreePolicy.regularFileMode)": changes.append(Change(path: path, oldID: header[2], newID: header[3]))
            default: return nil
            }
        }
        return changes
    }

    /// Each file to be replaced holds HEAD's blob, and no other file is where a new one goes:
    /// what `git status` found before the fetch still holds (a person may have edited since).
    /// A file that already holds the new content is not an edit: a fast-forward killed after
    /// writing it leaves a new file that recovery's `reset --hard` does not remove.
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
