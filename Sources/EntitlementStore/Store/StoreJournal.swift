import Glibc
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// All-or-nothing changes of several store files, by a redo journal.
///
/// Every new file is first written in full to `.tmp/` and fsynced. Then `.journal`
/// lists the renames (`from` in `.tmp/`, `to` in the store) and is itself renamed
/// into place: that rename is the commit point. The renames follow, then the journal
/// is removed. A writer killed before the commit point leaves only files in `.tmp/`,
/// which the next writer deletes; one killed after it leaves a journal, which the
/// next writer replays. Both happen under the lock (`EntitlementStore.recover()`).
/// See docs/store-format.md, "Writes".
extension EntitlementStore {
    static let journalFileName = ".journal"
    package static let stagingDirectory = ".tmp"
    /// Where ingested events' records live (one file each); the journal may write them.
    package static let eventRecordsDirectory = StoreFileKind.eventRecord.directory
    /// App Store original transaction → customer (EntitlementIngest's `AppStoreCustomerIndex`): `XX/DIGEST`.
    package static let appStoreCustomerIndexDirectory = StoreFileKind.appStoreCustomerIndexEntry.directory

    /// The index entry of an App Store original transaction, relative to the store root:
    /// `DIRECTORY/XX/DIGEST`, DIGEST the SHA-256 (hex) of the id. It holds the customer user id.
    package static func relativeAppStoreCustomerIndexPath(_ originalTransactionID: String) -> String {
        let digest = SHA256.hexDigest(Array(originalTransactionID.utf8))
        return "\(appStoreCustomerIndexDirectory)/\(digest.prefix(2))/\(digest)"
    }

    /// One file to replace: its path relative to the store root, and its new bytes.
    package struct FileChange: Equatable, Sendable {
        package var path: String
        package var bytes: [UInt8]

        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    var stagingPath: String { "\(root)/\(Self.stagingDirectory)" }
    var journalPath: String { "\(root)/\(Self.journalFileName)" }

    /// Replaces every file of `changes`, all or none. Call only while holding the lock.
    /// Returns the store-relative paths written, in order. Several files are all written
    /// first, each with its write-back started, then each is fsynced, then `.tmp/` once: the
    /// fsyncs find their data mostly on disk and share the file system's journal commits.
    /// Only what the journal names is flushed, never the whole file system (a `syncfs` there
    /// also waited for every other program's writes). With `syncOnce` (bulk writes) the files
    /// are written and fsynced on every core.
    @discardableResult
    package func commit(_ changes: [FileChange], syncOnce: Bool = false) throws(EntitlementError) -> [String] {
        guard !changes.isEmpty else { return [] }
        // A team store notes the paths (durably) before any of them changes: its next commit holds them.
        try recorder?.willWrite(changes.map(\.path))
        // New profiles' names go into the kept name list before the commit point (`ProfileNameIndex`).
        ProfileNameIndex(store: self).noteAdded(changes.compactMap { change in
            guard let name = ProfileNameIndex.name(ofProfilePath: change.path), !fileSystem.exists("\(root)/\(change.path)") else { return nil }
            return name
        })
        let modes = newModes()
        try ensureDirectory(Self.stagingDirectory, mode: modes.directory)
        var directories: [String] = [], seen: Set<String> = []
        for change in changes {
            let directory = PathName.directory(of: change.path)
            if seen.insert(directory).inserted { directories.append(directory) }
        }
        try ensureDirectories(directories, mode: modes.directory)
        if changes.count == 1, !syncOnce {
            try fileSystem.replace("\(root)/\(changes[0].path)", with: changes[0].bytes, stagingDirectory: stagingPath,
                                   newFileMode: modes.file, durable: durable)
            return [changes[0].path]
        }
        var renames: [(from: String, to: String)] = []
        do {
            renames = try stageAll(changes, fileMode: modes.file, durable: durable, parallel: syncOnce)
            let journal = JSONValue.object(JSONObject([
                ("schema_version", .int(1)),
                ("renames", .array(renames.map { .object(JSONObject([("from", .string($0.from)), ("to", .string($0.to))])) })),
            ]))
            try fileSystem.replace(journalPath, with: JSONWriter().bytes(journal), stagingDirectory: stagingPath,
                                   newFileMode: modes.file, durable: durable)
        } catch {
            for rename in renames { _ = try? systemCall("unlink") { fileSystem.unlink("\(root)/\(rename.from)") } }
            throw error
        }
        // Committed: from here on the change is done; a failure leaves the journal for the next writer.
        try apply(renames)
        return changes.map(\.path)
    }

    /// Completes or discards what a killed writer left behind. Call only while holding the lock.
    package func recover() throws(EntitlementError) {
        if try fileSystem.status(journalPath) != nil {
            guard let bytes = try fileSystem.readFile(journalPath) else { return }
            try apply(try Self.decodeJournal(bytes, path: journalPath))
        }
        guard let staging = try fileSystem.status(stagingPath), staging.st_mode & S_IFMT == S_IFDIR else { return }
        // Under the lock, every staged file belongs to a writer that died before its commit point.
        for name in try fileSystem.list(stagingPath) {
            _ = try? systemCall("unlink") { fileSystem.unlink("\(stagingPath)/\(name)") }
        }
    }

    /// Refuses unless every folder above `relative` (inside the store) is a real directory, not a
    /// symbolic link. Under the store lock nothing else changes them between this check and the
    /// rename, so this is as good as opening each component with `O_NOFOLLOW`.
    func requireRealFolders(of relative: String) throws(EntitlementError) {
        var checked: Set<String> = []
        try requireRealFolders(of: relative, checked: &checked)
    }

    /// Folders already in `checked` are not looked at again (one journal's renames share a few).
    func requireRealFolders(of relative: String, checked: inout Set<String>) throws(EntitlementError) {
        var path = root
        for component in relative.utf8.split(separator: UInt8(ascii: "/")).dropLast() {
            path += "/" + String(decoding: component, as: UTF8.self)
            guard !checked.contains(path) else { continue }
            guard let status = try fileSystem.status(path) else { return }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFLNK { throw StorePolicy.symlinkRefused(path) }
            guard kind == S_IFDIR else { throw StorePolicy.notDirectory(path, kind: kind) }
            checked.insert(path)
        }
    }

    /// Renames what is still staged, fsyncs the directories, removes the journal.
    private func apply(_ renames: [(from: String, to: String)]) throws(EntitlementError) {
        var directories: [String] = [], seen: Set<String> = []
        var checked: Set<String> = []
        for rename in renames {
            // A journal may have come from elsewhere (a copied store, a teammate's push): a rename
            // never follows a linked folder out of the store (docs/store-format.md, "Links").
            try requireRealFolders(of: rename.from, checked: &checked)
            try requireRealFolders(of: rename.to, checked: &checked)
            let from = "\(root)/\(rename.from)", to = "\(root)/\(rename.to)"
            do {
                try systemCall("rename") { fileSystem.rename(from, to) }
            } catch where error.code == ENOENT && !fileSystem.exists(from) {
                continue  // renamed before a crash
            } catch {
                throw .io(path: to, message: "cannot rename into place: \(error.message); the change is kept in \(Self.journalFileName) and completed by the next write")
            }
            let directory = PathName.directory(of: to)
            if seen.insert(directory).inserted { directories.append(directory) }
        }
        if durable { try syncDirectories(directories) }
        // The journal's removal is not flushed: a journal that comes back after a crash names
        // staged files that are gone (renamed), so replaying it changes nothing.
        do {
            try systemCall("unlink") { fileSystem.unlink(journalPath) }
        } catch where error.code != ENOENT {
            throw .io(path: journalPath, message: "cannot remove: \(error.message)")
        } catch {}
    }

    /// fsyncs every folder of `directories`: many (an ingest batch's fan-out folders) on
    /// several threads, as an fsync mostly waits on the disk; the first failure is thrown.
    private func syncDirectories(_ directories: [String]) throws(EntitlementError) {
        let fileSystem = self.fileSystem
        let outcomes = Parallel.map(directories, threshold: 16, chunkSize: 4, threads: Parallel.waitingWorkers) { directory in
            Swift.Result { () throws(EntitlementError) in try fileSystem.syncDirectory(directory) }
        }
        for case .failure(let error) in outcomes { throw error }
    }

    /// The renames of a journal; only paths of the store's own layout are accepted.
    static func decodeJournal(_ bytes: [UInt8], path: String) throws(EntitlementError) -> [(from: String, to: String)] {
        let document = try parse(bytes, path: path)
        guard case .object(let object) = document, case .array(let items)? = object["renames"] else {
            throw .invalidFile(path: path, detail: "not a journal: no \"renames\" list")
        }
        var renames: [(from: String, to: String)] = []
        for item in items {
            guard case .string(let from)? = item.objectValue?["from"], case .string(let to)? = item.objectValue?["to"],
                  isStagedName(from), isStoreFile(to) else {
                throw .invalidFile(path: path, detail: "a rename names a path outside the store's layout")
            }
            renames.append((from, to))
        }
        return renames
    }

    private static func isStagedName(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0] == Substring(stagingDirectory) && isPlainName(parts[1])
    }

    /// A path of the store's committed layout (`StoreFileKind`): what a journal may rename into place.
    package static func isStoreFile(_ path: String) -> Bool { StoreFileKind.kind(of: path) != nil }

    private static func isPlainName(_ name: Substring) -> Bool { !name.isEmpty && name != "." && name != ".." && !name.contains("/") }
}
