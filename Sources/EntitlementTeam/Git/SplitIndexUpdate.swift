import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Brings git's index current for a few paths by rewriting only the small file of a split
/// index, so the cost follows the change and not the store (docs/team-store.md, "Git's index").
///
/// `git update-index` reads and checks the whole index even when it is split: at 1M profiles
/// the shared part is hundreds of megabytes, and git hashes all of it on every read
/// (docs/performance.md, "Git's index after a commit"). The tool instead writes, under git's
/// own `index.lock`, the split file with an entry for each path (its stat data and blob id, as
/// `update-index` would record them) and the cache tree's directories above them marked out
/// of date. Git reads such an entry as replacing the shared entry of the same path.
enum SplitIndexUpdate {
    /// How big the small file and its cache tree may be (tests make them small).
    struct Limits {
        /// The largest split file kept: each commit reads, checks and hashes all of it. A
        /// change that would grow it past this (a bulk grant of thousands) is folded into a new
        /// shared index by git instead (`GitIndex.refresh`), once, so later commits find it
        /// small again.
        var splitFile = 1 << 20
        /// The largest split file read. Git writes the whole index's cache tree into the small
        /// file (3.6 MB at 1M fan-out profiles); the size limit above is for the entries.
        var splitFileRead = 64 << 20
        /// The largest cache tree (`TREE` extension) always kept and edited; a bigger one is
        /// dropped below `keepCacheTreeFromEntries`. Kept, a 2.8 MB cache tree (100k fan-out
        /// profiles) doubled a grant's time (57 ms against 25: reading, editing and writing
        /// it back on every commit); dropped, git's next merge walks every tree and builds it
        /// again, 0.6 s at 100k but 6 s of a 1M sync (docs/performance.md, "Team store").
        var cacheTree = 64 << 10
        /// From this many index entries on, the cache tree is kept whatever its size: the
        /// rebuild a merge would otherwise do grows with the entries (6 s at 2M entries, 1M
        /// profiles), while the cache tree of a fan-out store stops growing past 100k
        /// profiles (2.8 MB; 3.6 MB at 1M), so editing it costs a grant the same 30 ms at
        /// any size, within the 100 ms a grant may take at 1M.
        var keepCacheTreeFromEntries = 1_000_000

        static let standard = Limits()
    }

    enum Outcome: Equatable {
        /// The small file now holds the paths' entries.
        case updated
        /// Git's `update-index` must do it; `fold`: into a new shared index, because the
        /// small file would grow past `Limits.splitFile`.
        case leftToGit(fold: Bool)
    }

    /// Updates the entries of `paths` (relative to the store) to the files' current contents.
    /// Left to git, with nothing changed, when git must do it: no split index yet, a path
    /// deleted (its shared entry's position is only known by reading the shared index), a
    /// merge's conflict entries, an index that is busy (`index.lock`) or of a kind not handled
    /// here, or a change too big for the small file.
    /// `hashed`: files a commit has just read and hashed (`HashedFile`), not read again.
    static func apply(_ paths: [String], in repository: GitRepository, limits: Limits = .standard,
                      hashed: [String: HashedFile] = [:]) throws(EntitlementError) -> Outcome {
        let indexPath = "\(repository.gitDirectory)/index"
        let many = Set(paths).count > limits.splitFile / 256
        guard let status = try GitFiles.system.status(indexPath), Int(status.st_size) <= limits.splitFileRead,
              let bytes = try GitFiles.read(indexPath), var file = SplitIndexFile(bytes) else { return .leftToGit(fold: many) }
        var directories: Set<[UInt8]> = []
        var entries: [(name: [UInt8], raw: [UInt8])] = []
        for path in Set(paths) {
            guard let entry = try entry(for: path, in: repository, hashed: hashed[path]) else { return .leftToGit(fold: many) }
            entries.append((Array(path.utf8), entry))
            directories.formUnion(CacheTreeInvalidation.directories(above: path))
        }
        // A changed shared entry is replaced by position, the one shape git reads safely
        // (`SharedIndexPositions`); a new path is a named entry. Named entries that earlier
        // versions wrote for shared paths are looked up too, once per repository.
        let converting = !GitFiles.exists(convertedPath(repository))
        guard let id = file.sharedIndexID, let shared = try SharedIndexPositions(sharedIndex: id, in: repository),
              let positions = try shared.positions(of: entries.map(\.name) + (converting ? file.named.map(\.name) : [])),
              file.place(entries, sharedPositions: positions) else {
            return .leftToGit(fold: many)
        }
        // A small cache tree is kept, with the directories above each changed path marked out
        // of date; one past the limit (a store of more than a few thousand profiles) is dropped
        // rather than rewritten on every commit. Git treats it as the optimisation it is:
        // `git status` then compares the index with HEAD's trees, and `git commit` or the next
        // merge builds it again.
        if let tree = file.tree {
            let keep = tree.count <= limits.cacheTree || sharedEntries(file.link, in: repository) >= limits.keepCacheTreeFromEntries
            file.tree = keep ? CacheTreeInvalidation.invalidating(directories, in: tree) : nil
        }
        let rewritten = file.bytes
        guard rewritten.count - (file.tree?.count ?? 0) <= limits.splitFile else { return .leftToGit(fold: true) }
        guard try install(rewritten, in: repository, keepingTimesOf: status) else { return .leftToGit(fold: many) }
        freshenSharedIndex(file.link, in: repository)
        if converting {
            try GitFiles.makeDirectory(PathName.directory(of: convertedPath(repository)))
            try GitFiles.writeAtomically([], to: convertedPath(repository), durable: false)
        }
        return .updated
    }

    /// Present once the small file holds no named entry for a shared path (the shape versions
    /// before this one wrote, which made git 2.39 crash in `reset --hard`; `SharedIndexPositions`).
    static func convertedPath(_ repository: GitRepository) -> String {
        "\(repository.gitDirectory)/entitlement/index-by-position"
    }

    /// Turns the named entries an earlier version wrote for shared paths into replacements,
    /// once per repository (`sync` does it first, before git reads the index). A no-op once done.
    static func convertNamedEntries(in repository: GitRepository) throws(EntitlementError) {
        guard !GitFiles.exists(convertedPath(repository)) else { return }
        _ = try apply([], in: repository)
    }

    /// The raw index entry git would record for the file at `path`; nil when it is not a regular file.
    /// Its stat data come from an `lstat` of the file now; its blob id from `hashed` when that
    /// is the same file (the same stat data), else from reading and hashing it, as git does.
    static func entry(for path: String, in repository: GitRepository, hashed: HashedFile? = nil) throws(EntitlementError) -> [UInt8]? {
        let full = "\(repository.root)/\(path)"
        guard let status = try GitFiles.system.status(full), status.st_mode & S_IFMT == S_IFREG else { return nil }
        let name = Array(path.utf8)
        var raw: [UInt8] = []
        raw.reserveCapacity(SplitIndexFile.entrySize(nameLength: name.count))
        IndexStatFill.appendStatData(of: status, to: &raw)
        if let hashed, hashed.id.count == 20, raw.elementsEqual(hashed.statData) {
            raw += hashed.id
        } else {
            guard let content = try GitFiles.read(full) else { return nil }
            raw += SHA1.digest(Array("blob \(content.count)\0".utf8) + content)
        }
        let flags = min(name.count, 0xFFF)
        raw += [UInt8(flags >> 8), UInt8(flags & 0xFF)]
        raw += name
        raw += [UInt8](repeating: 0, count: SplitIndexFile.entrySize(nameLength: name.count) - raw.count)
        return raw
    }

    /// Replaces `.git/index` through `index.lock`, as git does; false when the lock is taken
    /// (a person's git is using the index: the paths stay recorded and are caught up later).
    ///
    /// The new file keeps the old one's modification time. Git trusts an entry's stat data
    /// only when the file is older than the index ("racy git"): with the old time, every entry
    /// kept keeps exactly the trust it had, and the new entries (files written after it) are
    /// compared by content until git next writes the index itself. A newer time would vouch
    /// for an edit made in the same clock tick as git's last index write, which git would
    /// have caught. Without `old`, the file gets the current time, as when git writes it.
    static func install(_ bytes: [UInt8], in repository: GitRepository, keepingTimesOf old: stat?) throws(EntitlementError) -> Bool {
        // git's own lock protocol: a person's git holding `index.lock` makes this a no-op.
        return try GitFiles.system.replaceThroughLock("\(repository.gitDirectory)/index", with: bytes, durable: false) { fd throws(SystemError) in
            if let old {
                var times = [old.st_atim, old.st_mtim]
                try systemCall("futimens") { futimens(fd, &times) }
            }
        }
    }

    /// The number of entries of the shared index `link` names (0 when unreadable).
    static func sharedEntries(_ link: [UInt8], in repository: GitRepository) -> Int {
        sharedIndexPath(link, in: repository).map(SplitIndexFile.entryCount(ofIndexAt:)) ?? 0
    }

    /// `.git/sharedindex.<id>`, the shared index a split file's `link` names.
    private static func sharedIndexPath(_ link: [UInt8], in repository: GitRepository) -> String? {
        guard link.count >= 20 else { return nil }
        return "\(repository.gitDirectory)/sharedindex.\(SHA1.hex(Array(link[0..<20])))"
    }

    /// Touches the shared index this file names, as git does on each write: git deletes shared
    /// indexes left untouched for `splitIndex.sharedIndexExpire` (two weeks) when it writes a new one.
    private static func freshenSharedIndex(_ link: [UInt8], in repository: GitRepository) {
        guard let path = sharedIndexPath(link, in: repository) else { return }
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }
}
