import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// The spool's prepared files (`PreparedFiles`, in `ingest/incoming/`): empty files made durable
/// after a webhook's answer, so that the next request is durable after one flush. A request
/// written into one is published into the spool after its answer; one whose webhook was killed
/// before that is published by the next reader of the spool (docs/ingest.md, "The spool").
extension Spool {
    /// How many free prepared files a webhook leaves for the requests after it.
    static let preparedCount = 4

    /// Where a request was spooled: `name` in the spool, or a prepared file to publish as `name`.
    package struct Spooled: Sendable {
        package let name: String
        let claim: PreparedFiles.Claim?
    }

    var prepared: PreparedFiles {
        PreparedFiles(fileSystem: store.fileSystem, directory: "\(store.root)/\(Self.incomingDirectory)")
    }

    /// Names a request written into a prepared file as a file of the spool (nothing to do for one
    /// written there directly), then prepares files for the next requests.
    package func publish(_ spooled: Spooled) throws(EntitlementError) {
        defer { prepared.replenish(to: Self.preparedCount, mode: store.newModes().file, durable: store.durable) }
        guard let claim = spooled.claim else { return }
        do throws(EntitlementError) {
            try store.ensureDirectory(Self.directory, mode: store.newModes().directory)
        } catch {
            prepared.release(claim)
            throw error
        }
        try prepared.publish(claim, as: "\(path)/\(spooled.name)", durable: store.durable)
    }

    /// Publishes the requests that prepared files hold and no webhook holds any more (killed
    /// between its answer and `publish`). A prepared file whose bytes are no spool record was cut
    /// off by a crash before its flush ended, so before any answer: it is renamed to a request file
    /// of `ingest/incoming/`, which `ingest` removes once abandoned, as any half-written request.
    func adoptPrepared() {
        for (claim, bytes) in prepared.adoptable() {
            guard let record = SpoolRecord(bytes: bytes) else {
                let cut = "\(store.root)/\(Self.incomingDirectory)/cut-off\(PathName.base(of: claim.path))"
                _ = try? systemCall("rename") { store.fileSystem.rename(claim.path, cut) }
                prepared.release(claim)
                continue
            }
            guard (try? store.ensureDirectory(Self.directory, mode: store.newModes().directory)) != nil else {
                prepared.release(claim)
                return
            }
            try? prepared.publish(claim, as: "\(path)/\(Self.name(for: record))", durable: store.durable)
        }
    }
}
