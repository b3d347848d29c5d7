import Glibc
import EntitlementBasics
import EntitlementModel

/// Renames the files of one store folder into a layout; re-running it finishes an interrupted run.
package enum LayoutMigration {
    /// Moves every file under `directory` (flat or two levels down) to where `layout` puts it.
    package static func move(directory: String, to layout: ProfileLayout, store: EntitlementStore) throws(EntitlementError) -> Int {
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
            do {
                try systemCall("rename") { fileSystem.rename(move.from, move.to) }
            } catch {
                throw .io(path: move.from, message: "cannot move to \(move.to): \(error.message)")
            }
        }
        for folder in emptied.reversed() { _ = rmdir(folder) }  // only empty ones go
        try flush?.sync()
        return moves.count
    }
}
