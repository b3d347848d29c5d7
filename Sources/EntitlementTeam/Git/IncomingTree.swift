import EntitlementBasics
import EntitlementModel

/// The files a fetched commit changes, with git's modes, read before anything is checked out.
///
/// Plumbing only (`merge-base`, `diff-tree --raw`): no attribute, filter or external diff
/// that a pushed `.gitattributes` could name ever runs while the tree is inspected.
struct IncomingTree {
    /// One changed path: its new mode (`000000` when deleted) and git's status letter, and its
    /// old mode and the two blob ids (`GitFastForward` writes from them).
    struct Entry: Equatable {
        var path: String
        var mode: String
        var status: Character
        var oldMode = ""
        var oldID = ""
        var newID = ""

        var isDeletion: Bool { status == "D" }
    }

    /// Git's id of the empty tree: the base when the two histories share nothing (a clone).
    static let emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

    var entries: [Entry]

    /// What `ref` changes since its merge base with `head` (or its whole tree, without `head`).
    static func changes(in repository: GitRepository, head: String?, ref: String) throws(EntitlementError) -> IncomingTree {
        var base = emptyTree
        if let head {
            let result = try repository.run(["merge-base", head, ref])
            if result.succeeded { base = result.output.trimmingWhitespace }
        }
        return try between(base, ref, in: repository)
    }

    /// What differs from `old` to `new` (trees or commits), as `new` has it.
    static func between(_ old: String, _ new: String, in repository: GitRepository) throws(EntitlementError) -> IncomingTree {
        let raw = try repository.check(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", old, new])
        return IncomingTree(entries: parse(Array(raw.utf8)))
    }

    /// `:OLDMODE NEWMODE OLDID NEWID STATUS\0PATH\0`, repeated.
    static func parse(_ bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        var index = 0
        while index + 1 < fields.count {
            let header = String(decoding: fields[index], as: UTF8.self).split(separator: " ")
            let path = String(decoding: fields[index + 1], as: UTF8.self)
            index += 2
            guard header.count == 5, let status = header[4].first else { continue }
            entries.append(Entry(path: path, mode: String(header[1]), status: status,
                                 oldMode: String(header[0].dropFirst()), oldID: String(header[2]), newID: String(header[3])))
        }
        return entries
    }
}
