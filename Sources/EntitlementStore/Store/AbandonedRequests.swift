import FoundationEssentials
import Glibc
import EntitlementBasics
import EntitlementModel

/// Webhook request files a killed `webhook` left in `ingest/incoming/` (its staging folder:
/// a request is written there, fsynced, then renamed into the spool). A file there older
/// than any live writer can be was never renamed, so never acknowledged: the vendor retries
/// it. `ingest` removes such files; `verify` and `ingest --status` report them. The prepared
/// files there (`PreparedFiles`) are no requests of their own and are never abandoned.
extension EntitlementStore {
    /// How old a file in `ingest/incoming/` must be to be abandoned: far beyond any webhook's
    /// life (a web server ends a CGI after a minute; the webhook waits a second for the lock).
    static let abandonedRequestAge: Double = 600

    /// The abandoned request files (full paths, in name order), as of `now`.
    package func abandonedRequests(now: Date) throws(EntitlementError) -> [String] {
        let directory = "\(root)/\(StoreFileKind.incomingDirectory)"
        guard fileSystem.isDirectory(directory) else { return [] }
        let limit = now.timeIntervalSince1970 - Self.abandonedRequestAge
        return try fileSystem.list(directory).filter { !PreparedFiles.isPrepared($0) }.sorted().map { "\(directory)/\($0)" }.filter { path in
            guard let status = try? fileSystem.status(path), status.st_mode & S_IFMT == S_IFREG else { return false }
            return Double(status.st_mtim.tv_sec) < limit
        }
    }

    /// Prepared files (`PreparedFiles`) that have held a request for longer than any webhook
    /// lives (full paths): acknowledged, and not moved into the spool by any reader since. They
    /// are reported, never removed.
    func unpublishedRequests(now: Date) -> [String] {
        let limit = now.timeIntervalSince1970 - Self.abandonedRequestAge
        return PreparedFiles(fileSystem: fileSystem, directory: "\(root)/\(StoreFileKind.incomingDirectory)").holding().filter { path in
            guard let status = (try? fileSystem.status(path)) ?? nil else { return false }
            return Double(status.st_mtim.tv_sec) < limit
        }
    }

    /// Removes the abandoned request files; returns how many went.
    @discardableResult
    package func removeAbandonedRequests(now: Date) throws(EntitlementError) -> Int {
        var removed = 0
        for path in try abandonedRequests(now: now) {
            do {
                try systemCall("unlink") { fileSystem.unlink(path) }
                removed += 1
            } catch where error.code == ENOENT {
                continue  // another ingest removed it
            } catch {
                throw .io(path: path, message: "cannot remove an abandoned webhook request: \(error.message)")
            }
        }
        return removed
    }
}
