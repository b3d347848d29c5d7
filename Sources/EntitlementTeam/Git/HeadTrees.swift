import EntitlementBasics
import EntitlementModel

/// HEAD's commit, its root tree and the trees of some folders in it, as a commit of a few
/// changed files needs them, read through one `git cat-file --batch` level by level.
///
/// The first request is HEAD and its root tree; each later one asks for the next level's
/// folders by the ids their parents' trees (already read) name. Git then looks each tree up
/// by id, where `HEAD:profiles/ab/cd` would make it walk from the root again for every
/// folder (an `ingest` batch of 500 events touches about 1,900 folders of a fan-out store).
/// A folder that is not in HEAD, or is a file there, is left out; its subfolders are not asked for.
struct HeadTrees {
    /// HEAD's commit; nil when HEAD has none yet (a branch not born).
    private(set) var head: String?
    /// HEAD's root tree.
    private(set) var root: String?
    /// The folders' trees that HEAD has (`""` is the root).
    private(set) var trees: [String: GitTree] = [:]
    /// How many objects each request asked for, in order (for the counted-work test).
    private(set) var requests: [Int] = []

    /// Reads `directories` (relative to the store, `""` for the root) at HEAD.
    static func read(_ directories: some Sequence<String>, in repository: GitRepository) throws(EntitlementError) -> HeadTrees {
        var byDepth: [[String]] = []
        for directory in Set(directories) where !directory.isEmpty {
            let depth = directory.utf8.reduce(1) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
            while byDepth.count <= depth { byDepth.append([]) }
            byDepth[depth].append(directory)
        }
        let session = try repository.session(["cat-file", "--batch"])
        var read = HeadTrees()
        do throws(EntitlementError) {
            let first = try read.ask(["HEAD", "HEAD^{tree}"], session, repository)
            guard let head = first[0], head.type == "commit", let root = first[1] else {
                _ = session.finish()
                return read
            }
            read.head = head.id
            read.root = root.id
            read.trees[""] = try tree(root, repository)
            for level in byDepth.dropFirst() {
                // Each folder whose parent has it as a folder.
                let asked = level.compactMap { directory -> (directory: String, id: String)? in
                    guard let entry = read.trees[PathName.parent(of: directory)]?.entries[PathName.base(of: directory)], entry.isDirectory else { return nil }
                    return (directory, entry.id)
                }
                if asked.isEmpty { break }
                for (directory, object) in zip(asked.map(\.directory), try read.ask(asked.map(\.id), session, repository)) {
                    guard let object else { throw unreadable(directory, repository) }
                    read.trees[directory] = try tree(object, repository)
                }
            }
        } catch {
            _ = session.finish()
            throw error
        }
        let end = session.finish()
        guard end.succeeded else { throw cannotRead(end.errorText, repository) }
        return read
    }

    /// Asks for `names` (one object each) and returns the answers in order.
    private mutating func ask(_ names: [String], _ session: Subprocess.Session, _ repository: GitRepository) throws(EntitlementError) -> [GitBatchOutput.Object?] {
        requests.append(names.count)
        var request: [UInt8] = []
        for name in names { request += name.utf8; request.append(0x0A) }
        var answer: [UInt8] = []
        var scanner = GitBatchOutput.Scanner()
        let answered = session.exchange(request, answer: &answer) { bytes in
            scanner.scan(bytes)
            return scanner.objects.count >= names.count
        }
        guard answered, scanner.objects.count == names.count else {
            throw Self.cannotRead(session.finish().errorText, repository)
        }
        return scanner.objects
    }

    private static func tree(_ object: GitBatchOutput.Object, _ repository: GitRepository) throws(EntitlementError) -> GitTree {
        guard object.type == "tree", let tree = GitTree(content: object.content) else {
            throw .git(message: "unreadable tree object \(object.id) in \(repository.root)", hint: "Run 'git fsck' in the store.")
        }
        return tree
    }

    private static func unreadable(_ directory: String, _ repository: GitRepository) -> EntitlementError {
        .git(message: "the tree of \(directory) is missing from \(repository.root)", hint: "Run 'git fsck' in the store.")
    }

    private static func cannotRead(_ errorText: String, _ repository: GitRepository) -> EntitlementError {
        .git(message: "cannot read HEAD in \(repository.root): \(GitRepository.firstLines(errorText))", hint: nil)
    }
}
