#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
@_silgen_name("syncfs") private func syncFileSystem(_ fd: Int32) -> Int32
#endif

/// Many profile writes made durable together, and visible together.
///
/// `stage` writes each new file beside its target (`.NAME.tmp-…`, the same name a single
/// write uses). `commit` makes the staged files durable with one file-system sync, records
/// every rename in `STORE/.batch-journal` (durable), renames them all into place, syncs the
/// directories and removes the journal. A crash before the journal is written leaves the
/// store as it was (plus temporary files `verify` reports); a crash after it is finished
/// by the next writer (`recover`, run under the lock). So a commit is all-or-nothing.
/// Call only while holding the store's writer lock.
final class ProfileWriteBatch {
    let store: EntitlementStore
    private(set) var staged: [(temporary: String, target: String)] = []
    private var sequence = 0

    static let journalName = ".batch-journal"

    init(store: EntitlementStore) { self.store = store }

    var isEmpty: Bool { staged.isEmpty }

    /// Writes `profile` (and its profile-id index entry, if it changes) to temporary files.
    func stage(_ profile: Profile) throws(EntitlementError) {
        try FileSystem.makeDirectory(store.profilesPath)
        try stage(JSONWriter().bytes(profile.json), to: store.profilePath(for: profile.customerUserID))
        if let profileID = profile.profileID, !profileID.isEmpty {
            let indexPath = store.profileIDIndexPath(for: profileID)
            let userID = Array(profile.customerUserID.utf8)
            if try FileSystem.read(indexPath) != userID {
                try FileSystem.makeDirectory("\(store.root)/\(EntitlementStore.profileIDIndexDirectory)")
                try stage(userID, to: indexPath)
            }
        }
    }

    private func stage(_ bytes: [UInt8], to target: String) throws(EntitlementError) {
        sequence += 1
        let temporary = "\(PathName.directory(of: target))/.\(PathName.base(of: target)).tmp-\(getpid())-b\(sequence)"
        try FileSystem.writeFile(bytes, to: temporary, sync: false)
        staged.append((temporary, target))
    }

    /// Makes every staged write durable and visible, all or nothing.
    func commit() throws(EntitlementError) {
        guard !staged.isEmpty else { return }
        if store.durable { try syncStaged() }
        let journal = "\(store.root)/\(Self.journalName)"
        let prefix = store.root + "/"
        let lines = staged.map { "\($0.temporary.dropFirst(prefix.count))\t\($0.target.dropFirst(prefix.count))\n" }.joined()
        try FileSystem.writeAtomically(Array(lines.utf8), to: journal, durable: store.durable)
        try Self.finish(store: store, renames: staged)
        staged = []
    }

    /// Removes staged files that were never committed.
    func discard() {
        for entry in staged { unlink(entry.temporary) }
        staged = []
    }

    /// Finishes a commit a crash interrupted: renames what the journal lists and is still staged.
    static func recover(_ store: EntitlementStore) throws(EntitlementError) {
        let journal = "\(store.root)/\(journalName)"
        guard let bytes = try FileSystem.read(journal) else { return }
        var renames: [(String, String)] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { throw .invalidFile(path: journal, detail: "unreadable journal line '\(line)'") }
            renames.append(("\(store.root)/\(parts[0])", "\(store.root)/\(parts[1])"))
        }
        try finish(store: store, renames: renames)
    }

    private static func finish(store: EntitlementStore, renames: [(temporary: String, target: String)]) throws(EntitlementError) {
        var directories: Set<String> = []
        for (temporary, target) in renames where FileSystem.exists(temporary) {
            guard rename(temporary, target) == 0 else {
                throw .io(path: target, message: "cannot rename into place: \(FileSystem.errorMessage())")
            }
            directories.insert(PathName.directory(of: target))
        }
        if store.durable { for directory in directories.sorted() { try FileSystem.syncDirectory(directory) } }
        let journal = "\(store.root)/\(journalName)"
        unlink(journal)
        if store.durable { try FileSystem.syncDirectory(store.root) }
    }

    /// One sync of the file system holding the store (Linux), else one fsync per file.
    private func syncStaged() throws(EntitlementError) {
        #if os(Linux)
        let fd = open(store.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: store.root, message: "cannot open: \(FileSystem.errorMessage())") }
        defer { close(fd) }
        guard syncFileSystem(fd) == 0 else { throw .io(path: store.root, message: "cannot sync: \(FileSystem.errorMessage())") }
        #else
        for entry in staged { try FileSystem.syncFile(entry.temporary) }
        #endif
    }
}
