#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renames the files of one store folder into a layout; re-running it finishes an interrupted run.
enum LayoutMigration {
    /// Moves every file under `directory` (flat or two levels down) to where `layout` puts it.
    static func move(directory: String, to layout: ProfileLayout, store: EntitlementStore) throws(EntitlementError) -> Int {
        guard FileSystem.isDirectory(directory) else { return 0 }
        var moves: [(from: String, to: String)] = []
        var emptied: [String] = []
        func walk(_ folder: String, depth: Int) throws(EntitlementError) {
            for name in try FileSystem.list(folder).sorted() where !name.hasPrefix(".") {
                let path = "\(folder)/\(name)"
                if FileSystem.isDirectory(path) {
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
        for move in moves {
            try FileSystem.makeDirectory(PathName.directory(of: move.to))
            guard rename(move.from, move.to) == 0 else { throw .io(path: move.from, message: "cannot move to \(move.to): \(FileSystem.errorMessage())") }
        }
        for folder in emptied.reversed() { rmdir(folder) }  // only empty ones go
        if store.durable { try FileSystem.syncDirectory(directory) }
        return moves.count
    }
}
