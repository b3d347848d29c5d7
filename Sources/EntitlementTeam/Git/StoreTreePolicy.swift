import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// What a team store's git tree may hold: the files of the store's committed layout
/// (`StoreFileKind`, the same declaration its writers take their paths from) as regular files,
/// and nothing else (docs/team-store.md, "Security").
///
/// A teammate who can push is not an administrator: a link, a submodule, the writer's
/// `.lock` or `.journal`, a staged file in `.tmp/` or any unknown path could reach outside the
/// store or replay unchecked content, so such a tree is refused before it is checked out.
enum StoreTreePolicy {
    /// Git's mode of an ordinary, non-executable file: the only kind a store holds.
    static let regularFileMode = "100644"

    /// Files at the top of the store besides `config.json`.
    static let gitFiles: Set<String> = [".gitattributes", ".gitignore"]

    /// Why `entry` may not arrive, or nil when it may. A deletion is always allowed.
    static func refusal(_ entry: IncomingTree.Entry) -> String? {
        guard !entry.isDeletion else { return nil }
        switch entry.mode {
        case "120000": return "\(entry.path) is a symbolic link"
        case "160000": return "\(entry.path) is a gitlink (a submodule)"
        case regularFileMode: break
        default: return "\(entry.path) has mode \(entry.mode); store files are plain files (100644)"
        }
        if gitFiles.contains(entry.path) || EntitlementStore.isStoreFile(entry.path) { return nil }
        if StoreFileKind.localPaths.contains(where: { entry.path == $0 || $0.hasSuffix("/") && (entry.path.hasPrefix($0) || entry.path + "/" == $0) }) {
            return "\(entry.path) is the writer's own file, local to each copy, and never part of the store's history"
        }
        return "\(entry.path) is not a store file (config.json, profiles, index entries, ingest records, .gitattributes, .gitignore)"
    }

    /// Throws, naming up to five paths, unless every entry may arrive.
    static func check(_ tree: IncomingTree, source: String) throws(EntitlementError) {
        let refused = tree.entries.compactMap(refusal)
        guard !refused.isEmpty else { return }
        let more = refused.count > 5 ? " (and \(refused.count - 5) more)" : ""
        throw .git(message: "\(source) holds what a store may not: \(refused.prefix(5).joined(separator: "; "))\(more)",
                   hint: "Nothing was checked out or merged; your store and commits are unchanged. Remove those paths in a clone with plain git, push, then sync again (docs/team-store.md, \"Security\").")
    }

    /// How many customers' profiles `tree` removes: deleted profile files whose name no added
    /// file takes up again (`migrate` moves files, it does not remove customers).
    static func removedProfiles(_ tree: IncomingTree) -> [String] {
        let profiles = tree.entries.filter { $0.path.hasPrefix("\(EntitlementStore.profilesDirectory)/") }
        let added = Set(profiles.filter { !$0.isDeletion }.map { PathName.base(of: $0.path) })
        return profiles.filter { $0.isDeletion && !added.contains(PathName.base(of: $0.path)) }.map(\.path)
    }
}
