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
        var moved = 0
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
                guard target != path else { continue }
                try FileSystem.makeDirectory(PathName.directory(of: target))
                try store.recorder?.willWrite(path)
                try store.recorder?.willWrite(target)
                guard rename(path, target) == 0 else { throw .io(path: path, message: "cannot move to \(target): \(FileSystem.errorMessage())") }
                moved += 1
            }
        }
        try walk(directory, depth: 0)
        for folder in emptied.reversed() { rmdir(folder) }  // only empty ones go
        if store.durable { try FileSystem.syncDirectory(directory) }
        return moved
    }
}
