import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
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
    struct Spooled: Sendable {
        let name: String
        let claim: PreparedFiles.Claim?
    }

    var prepared: PreparedFiles {
        PreparedFiles(fileSystem: store.fileSystem, directory: "\(store.root)/\(Self.incomingDirectory)")
    }

    /// The spool name of a request written into a prepared file: the same for its webhook and
    /// for whoever adopts it (`MILLIS-VENDOR-slot-RANDOM.json`, RANDOM the prepared file's).
    static func name(for record: SpoolRecord, in claim: PreparedFiles.Claim) -> String {
        "\(stamp(record.request.receivedAt))-\(record.request.vendor.rawValue)-slot-\(claim.suffix).json"
    }

    /// Names a request written into a prepared file as a file of the spool (nothing to do for one
    /// written there directly), then prepares files for the next requests.
    func publish(_ spooled: Spooled) throws(EntitlementError) {
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
    /// between its answer and `publish`); returns what could not be published, one line each.
    /// Bytes that are no JSON at all were cut off by a crash before their flush ended, so
    /// before any answer: the file is renamed `cut-off.slot-*`, a half-written request of
    /// `ingest/incoming/` that `ingest` removes once abandoned. Whole JSON that is no spool
    /// record this version reads is published all the same, and reported when read.
    @discardableResult
    func adoptPrepared() -> [String] {
        let found = prepared.adoptable()
        guard !found.isEmpty else { return [] }
        do throws(EntitlementError) {
            try store.ensureDirectory(Self.directory, mode: store.newModes().directory)
        } catch {
            for each in found { prepared.release(each.claim) }
            return ["\(Self.incomingDirectory)/: \(found.count) webhook request(s) not moved into the spool: \(error.description)"]
        }
        var problems: [String] = []
        for (claim, bytes, modified) in found {
            let name: String
            if let record = SpoolRecord(bytes: bytes) {
                name = Self.name(for: record, in: claim)
            } else if (try? JSONParser.parse(bytes)) != nil {
                name = "\(Self.stamp(Date(timeIntervalSince1970: Double(modified))))-unreadable-slot-\(claim.suffix).json"
            } else {
                let cut = "\(store.root)/\(Self.incomingDirectory)/cut-off\(PathName.base(of: claim.path))"
                _ = try? systemCall("rename") { store.fileSystem.rename(claim.path, cut) }
                prepared.release(claim)
                continue
            }
            do throws(EntitlementError) {
                try prepared.publish(claim, as: "\(path)/\(name)", durable: store.durable)
            } catch {
                problems.append(error.description)
            }
        }
        return problems
    }
}
