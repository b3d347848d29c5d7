import Glibc
import EntitlementBasics
import EntitlementModel

/// The one way to visit every profile file of a store (find, summary, verify).
///
/// It streams: the folder is read in batches, so memory holds one batch whatever the
/// store's size. Subfolders of `profiles/` are walked too, so a fanned-out layout
/// (`profiles/ab/…`) is scanned the same way as the flat one. Paths within a batch are
/// sorted; a store of up to one batch is therefore visited in file-name order.
package struct ProfileScan {
    let store: EntitlementStore

    package init(store: EntitlementStore) {
        self.store = store
    }
    /// How many paths are handed over at a time.
    var batchSize = 4096

    /// Temporary files a writer leaves beside its target until the rename (`.NAME.tmp-…`).
    static func isLeftover(_ name: String) -> Bool { name.hasPrefix(".") && name.contains(".tmp-") }

    /// True for a file name the scan treats as a profile.
    static func isProfileFile(_ name: String) -> Bool { name.hasSuffix(".json") && !name.hasPrefix(".") }

    /// Calls `body` with batches of profile file paths; `leftover` gets temporary files left behind.
    func forEachBatch(leftover: (String) -> Void = { _ in },
                      _ body: ([String]) throws(EntitlementError) -> Void) throws(EntitlementError) {
        try store.requireExists()
        guard store.fileSystem.isDirectory(store.profilesPath) else { return }
        var batch: [String] = []
        batch.reserveCapacity(batchSize)
        try walk(store.profilesPath, batch: &batch, leftover: leftover, body)
        if !batch.isEmpty { try body(batch.sorted()) }
    }

    /// How many profile files there are (a listing only; for progress bars).
    package func count() throws(EntitlementError) -> Int {
        var total = 0
        try forEachBatch { total += $0.count }
        return total
    }

    private func walk(_ directory: String, batch: inout [String], leftover: (String) -> Void,
                      _ body: ([String]) throws(EntitlementError) -> Void) throws(EntitlementError) {
        var subdirectories: [String] = []
        var failure: EntitlementError?
        do {
            try store.fileSystem.walk(directory) { entry in
                let name = String(decoding: entry.name, as: UTF8.self)
                let path = "\(directory)/\(name)"
                if entry.kind == .directory {
                    if !entry.isHidden { subdirectories.append(path) }
                } else if Self.isLeftover(name) {
                    leftover(path)
                } else if Self.isProfileFile(name) {
                    batch.append(path)
                    if batch.count >= batchSize {
                        do throws(EntitlementError) { try body(batch.sorted()) } catch { failure = error; return false }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                return true
            }
        } catch {
            throw .io(path: directory, message: "cannot list: \(error.message)")
        }
        if let failure { throw failure }
        for subdirectory in subdirectories.sorted() { try walk(subdirectory, batch: &batch, leftover: leftover, body) }
    }
}
