import EntitlementBasics
import EntitlementModel

/// Commits a few changed files of a big repository through git's plumbing: the cost follows
/// the change, not the size of the store.
///
/// Blobs and the trees along each changed path are written as loose objects by the tool
/// itself, in one batch; git is run three times (`cat-file --batch` for the old trees, level by
/// level through one process, `HeadTrees`; `commit-tree`, `update-ref`). Git's index is caught
/// up right after (`GitIndex`), with the blob ids computed here: each file is read and hashed once.
struct GitCommitter {
    let repository: GitRepository
    var durable = true

    /// Commits the current content of `paths` (relative to the store; a missing file is a
    /// deletion) on top of HEAD. Returns the new commit, or nil when nothing differs from HEAD.
    @discardableResult
    func commit(paths: [String], message: String, author: GitIdentity) throws(EntitlementError) -> String? {
        var objects = ObjectWriter(objectsDirectory: "\(repository.gitDirectory)/objects", durable: durable)
        var blobs: [String: String?] = [:]
        // What the index update needs so as not to read and hash each file again.
        var hashed: [String: SplitIndexUpdate.HashedFile] = [:]
        var directories: Set<String> = [""]
        for path in Set(paths) {
            let file = try GitFiles.readWithStatus("\(repository.root)/\(path)")
            let blob = file.map { objects.add(type: "blob", content: $0.bytes) }
            // updateValue: a nil (deleted file) must be kept as a value, not remove the key.
            blobs.updateValue(blob, forKey: path)
            if let file, let blob { hashed[path] = SplitIndexUpdate.HashedFile(status: file.status, id: blob) }
            var directory = PathName.parent(of: path)
            while !directory.isEmpty {
                directories.insert(directory)
                directory = PathName.parent(of: directory)
            }
        }
        let read = try HeadTrees.read(directories, in: repository)
        let head = read.head, headTree = read.root
        var edited = read.trees
        for (path, blob) in blobs {
            let directory = PathName.parent(of: path), name = PathName.base(of: path)
            if let blob {
                edited[directory, default: GitTree()].entries[name] = .init(mode: GitTree.fileMode, name: name, id: blob)
            } else {
                edited[directory, default: GitTree()].entries[name] = nil
            }
        }
        // Deepest first, so each parent sees its children's new ids.
        let deepestFirst = directories.map { (directory: $0, depth: $0.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }) }
            .sorted { $0.depth > $1.depth }.map(\.directory)
        for directory in deepestFirst where !directory.isEmpty {
            let tree = edited[directory] ?? GitTree()
            let parent = PathName.parent(of: directory), name = PathName.base(of: directory)
            if tree.entries.isEmpty {
                edited[parent, default: GitTree()].entries[name] = nil
            } else {
                let id = objects.add(type: "tree", content: tree.content)
                edited[parent, default: GitTree()].entries[name] = .init(mode: GitTree.directoryMode, name: name, id: id)
            }
        }
        let rootTree = objects.add(type: "tree", content: (edited[""] ?? GitTree()).content)
        if rootTree == headTree { return nil }
        try objects.flush()
        let commit = try commitTree(rootTree, parent: head, message: message, author: author)
        // Before HEAD moves: git's index is then older than HEAD for these paths (GitIndex).
        try GitIndex.noteStale(blobs.keys.sorted(), in: repository, durable: durable)
        // No hooks: the index hook would only skip itself (ENTITLEMENT_GIT), at the cost of two shells.
        try repository.check(["-c", "core.hooksPath=/dev/null", "update-ref", "-m", "entitlement: \(message.split(separator: "\n").first ?? "")", "HEAD", commit,
                              head ?? String(repeating: "0", count: 40)])
        // The index catches up with these paths now, so `git status` is clean after the command.
        // Best effort: when it cannot (a person's git holds index.lock), the record stays and
        // `sync` or the hooks catch up; the commit is done.
        _ = try? GitIndex.refresh(repository, hashed: hashed)
        return commit
    }

    private func commitTree(_ tree: String, parent: String?, message: String, author: GitIdentity) throws(EntitlementError) -> String {
        var arguments = ["commit-tree", tree]
        if let parent { arguments += ["-p", parent] }
        let authorEnvironment = ["GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email]
        let input = Array((message.hasSuffix("\n") ? message : message + "\n").utf8)
        var result = try repository.run(arguments, input: input, extraEnvironment: authorEnvironment)
        if !result.succeeded, result.errorText.contains("tell me who you are") || result.errorText.contains("empty ident") {
            // No committer configured on this machine: the actor commits too.
            var environment = authorEnvironment
            environment["GIT_COMMITTER_NAME"] = author.name
            environment["GIT_COMMITTER_EMAIL"] = author.email
            result = try repository.run(arguments, input: input, extraEnvironment: environment)
        }
        guard result.succeeded else {
            throw .git(message: "cannot commit in \(repository.root): \(GitRepository.firstLines(result.errorText))",
                       hint: "The files are written; the next command that writes commits them.")
        }
        return result.output.trimmingWhitespace
    }
}
