import Glibc
import EntitlementBasics
import EntitlementModel

/// Renames the files of one store folder into a layout; re-running it finishes an interrupted run.
/// A move never replaces a file: a profile already at the target is
/// a collision, reported, never overwritten.
package enum LayoutMigration {
    /// What to do with a file whose target is taken by another file.
    enum Collision {
        /// Stop with `migrationCollision`: both files are kept (profiles).
        case refuse
        /// Remove the file being moved: the target serves as well (the profile-id index, a cache).
        case dropSource
    }

    /// `entitlement migrate`: every profile and index entry to `layout`, then `config.json`,
    /// under the lock, inside the migration marker (`MigrationMarker.swift`). Returns the
    /// number of files moved. Run again, it finishes an interrupted run, to any layout.
    package static func migrate(_ store: EntitlementStore, to layout: ProfileLayout, change: ChangeDescription? = nil) throws(EntitlementError) -> Int {
        try store.withWriteLock(change, resumingMigration: true) { () throws(EntitlementError) -> Int in
            var configuration = try store.loadConfiguration()
            try store.beginMigration(to: layout)
            var count = try move(directory: "\(store.root)/\(EntitlementStore.profilesDirectory)", to: layout, store: store)
            count += try move(directory: "\(store.root)/\(EntitlementStore.profileIDIndexDirectory)", to: layout, store: store, collision: .dropSource)
            count += try move(directory: "\(store.root)/\(EntitlementStore.aliasIndexDirectory)", to: layout, store: store, collision: .dropSource)
            if configuration.profileLayout != layout {
                configuration.profileLayout = layout
                try store.saveConfiguration(configuration)
            }
            try store.endMigration()
            return count
        }
    }

    /// Moves every file under `directory` (flat or two levels down) to where `layout` puts it.
    static func move(directory: String, to layout: ProfileLayout, store: EntitlementStore, collision: Collision = .refuse) throws(EntitlementError) -> Int {
        let fileSystem = store.fileSystem
        guard fileSystem.isDirectory(directory) else { return 0 }
        var moves: [(from: String, to: String)] = []
        var emptied: [String] = []
        func walk(_ folder: String, depth: Int) throws(EntitlementError) {
            for name in try fileSystem.list(folder).sorted() where !name.hasPrefix(".") {
                let path = "\(folder)/\(name)"
                if fileSystem.isDirectory(path) {
                    if depth < 2 { try walk(path, depth: depth + 1); emptied.append(path) }
                    continue
                }
                let base = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
                let target = "\(directory)/\(layout.relativePath(forName: base, suffix: name.hasSuffix(".json") ? ".json" : ""))"
                if target != path { moves.append((path, target)) }
            }
        }
        try walk(directory, depth: 0)
        // One journal entry for the whole move (a team store), then the renames.
        if !moves.isEmpty { try store.recorder?.willWrite(moves.flatMap { [$0.from, $0.to] }) }
        let modes = store.newModes()
        // Thousands of new folders and renames: one sync of the file system makes them all
        // durable (opened first, so a write-back error during the moves is reported too).
        let flush = store.durable && !moves.isEmpty ? try FileSystemSync(directory: directory) : nil
        for move in moves {
            try store.ensureDirectory(String(PathName.directory(of: move.to).dropFirst(store.root.count + 1)), mode: modes.directory, syncParents: false)
            // A linked folder is never followed: no file is moved in from, or out to, outside the store.
            try store.requireRealFolders(of: String(move.from.dropFirst(store.root.count + 1)))
            try moveWithoutReplacing(move.from, to: move.to, fileSystem: fileSystem, collision: collision)
        }
        for folder in emptied.reversed() { _ = fileSystem.rmdir(folder) }  // only empty ones go
        try flush?.sync()
        return moves.count
    }

    /// `rename` that never replaces: a second name (`link` fails on an existing target),
    /// then the old name goes. A run killed between the two leaves both names on one
    /// file, which the next run recognises and finishes.
    static func moveWithoutReplacing(_ from: String, to: String, fileSystem: FileSystem, collision: Collision) throws(EntitlementError) {
        do {
            try systemCall("link") { fileSystem.link(from, to) }
        } catch {
            switch error.code {
            case EEXIST:
                if try !sameFile(from, to, fileSystem) {
                    guard collision == .dropSource else { throw .migrationCollision(from: from, to: to) }
                }
            case EPERM, EOPNOTSUPP:
                // A file system without hard links: the lock keeps writers out, so checking first is enough.
                guard try fileSystem.status(to) == nil else {
                    guard collision == .dropSource else { throw .migrationCollision(from: from, to: to) }
                    break
                }
                do {
                    try systemCall("rename") { fileSystem.rename(from, to) }
                } catch {
                    throw .io(path: from, message: "cannot move to \(to): \(error.message)")
                }
                return
            default:
                throw .io(path: from, message: "cannot move to \(to): \(error.message)")
            }
        }
        do {
            try systemCall("unlink") { fileSystem.unlink(from) }
        } catch {
            throw .io(path: from, message: "cannot remove after moving to \(to): \(error.message)")
        }
    }

    private static func sameFile(_ a: String, _ b: String, _ fileSystem: FileSystem) throws(EntitlementError) -> Bool {
        guard let x = try fileSystem.status(a), let y = try fileSystem.status(b) else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
