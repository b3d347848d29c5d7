import FoundationEssentials
import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// The spool: requests written durably inside the store before `webhook` answers, waiting
/// for `ingest` (docs/ingest.md, "The spool"). Local to one copy of the store: git ignores it.
///
/// A file appears whole or not at all: written into a prepared file and published after the
/// answer (`Spool+Prepared.swift`), or written in `incoming/`, fsynced, renamed, directory
/// fsynced. It is removed only after the events it holds are in the ledger.
package struct Spool: Sendable {
    package let store: EntitlementStore

    package static let directory = StoreFileKind.spoolDirectory
    static let failedDirectory = StoreFileKind.failedDirectory
    static let incomingDirectory = StoreFileKind.incomingDirectory

    package init(store: EntitlementStore) { self.store = store }

    package var path: String { "\(store.root)/\(Self.directory)" }
    var failedPath: String { "\(store.root)/\(Self.failedDirectory)" }

    /// Writes `record` durably and returns where: into a prepared file when one is free (one
    /// flush; `publish` names it after the answer, and must be called), else as a file of the
    /// spool. Needs no lock.
    func write(_ record: SpoolRecord) throws(EntitlementError) -> Spooled {
        let bytes = record.bytes
        if let claim = prepared.write(bytes, durable: store.durable) { return Spooled(name: Self.name(for: record, in: claim), claim: claim) }
        let name = Self.name(for: record)
        let modes = store.newModes()
        try store.ensureDirectory(Self.directory, mode: modes.directory)
        try store.ensureDirectory(Self.incomingDirectory, mode: modes.directory)
        try store.fileSystem.replace("\(path)/\(name)", with: bytes, stagingDirectory: "\(store.root)/\(Self.incomingDirectory)",
                                     newFileMode: modes.file, durable: store.durable)
        return Spooled(name: name, claim: nil)
    }

    /// A spool file's name: the time received (milliseconds, so names sort oldest first), the
    /// vendor, the process and a random number.
    static func name(for record: SpoolRecord) -> String {
        "\(stamp(record.request.receivedAt))-\(record.request.vendor.rawValue)-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).json"
    }

    /// Milliseconds since 1970, padded so that names sort by it.
    static func stamp(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))).leftPadded(to: 14)
    }

    /// The waiting files' names, oldest first; requests in prepared files whose webhook is gone
    /// are moved into the spool first (`adoptPrepared`).
    package func waiting() throws(EntitlementError) -> [String] {
        adoptPrepared()
        return try names(in: path)
    }

    /// The names of the records that failed to apply, oldest first.
    package func failed() throws(EntitlementError) -> [String] {
        try names(in: failedPath)
    }

    package func read(_ name: String, failed: Bool = false) throws(EntitlementError) -> SpoolRecord? {
        let file = "\(failed ? failedPath : path)/\(name)"
        guard let bytes = try store.fileSystem.readFile(file) else { return nil }
        guard let record = SpoolRecord(bytes: bytes) else { throw .invalidFile(path: file, detail: "not a spool record; left in place") }
        return record
    }

    /// Removes a handled file (its events are in the ledger). A file already gone is fine:
    /// another `ingest` handled it.
    package func remove(_ name: String) throws(EntitlementError) {
        let file = "\(path)/\(name)"
        try removeIfPresent(file)
    }

    /// Moves a record that failed to apply to `ingest/failed/`, with the reason; `ingest` retries it.
    func markFailed(_ name: String, _ record: SpoolRecord, reason: String) throws(EntitlementError) {
        let modes = store.newModes()
        try store.ensureDirectory(Self.failedDirectory, mode: modes.directory)
        try store.ensureDirectory(Self.incomingDirectory, mode: modes.directory)
        var failed = record
        failed.failure = reason
        try store.fileSystem.replace("\(failedPath)/\(name)", with: failed.bytes, stagingDirectory: "\(store.root)/\(Self.incomingDirectory)",
                                     newFileMode: modes.file, durable: store.durable)
        try remove(name)
    }

    /// Takes a failed record back into the spool for another attempt.
    func retry(_ name: String) throws(EntitlementError) {
        guard var record = try read(name, failed: true) else { return }
        record.failure = nil
        try store.fileSystem.replace("\(path)/\(name)", with: record.bytes, stagingDirectory: "\(store.root)/\(Self.incomingDirectory)",
                                     newFileMode: store.newModes().file, durable: store.durable)
        let file = "\(failedPath)/\(name)"
        try removeIfPresent(file)
    }

    /// False for a spooled unit whose file has left the spool (applied, or moved to `failed/`).
    func holds(_ unit: IngestUnit) -> Bool {
        guard case .spool(let name) = unit.source else { return true }
        return store.fileSystem.exists("\(path)/\(name)")
    }

    private func names(in directory: String) throws(EntitlementError) -> [String] {
        guard store.fileSystem.isDirectory(directory) else { return [] }
        return try store.fileSystem.list(directory).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
    }

    /// Removes `file`; one already gone is fine (another `ingest` handled it).
    private func removeIfPresent(_ file: String) throws(EntitlementError) {
        do {
            try systemCall("unlink") { store.fileSystem.unlink(file) }
        } catch where error.code != ENOENT {
            throw .io(path: file, message: "cannot remove: \(error.message)")
        } catch {}
    }
}
