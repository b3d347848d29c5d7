import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// `ingest --status`: what waits in the spool and what failed, with reasons.
package struct IngestStatus: Sendable, Equatable {
    package struct Failure: Sendable, Equatable {
        package var file: String
        package var vendor: String
        package var receivedAt: Date?
        package var reason: String
    }

    package var waiting: Int
    package var oldest: Date?
    package var failures: [Failure]
    /// Google Play purchases whose latest notification is newer than their last imported document.
    package var awaitingPurchases: [AwaitingPurchase] = []
    /// Request files killed webhooks left in `ingest/incoming/`; the next `ingest` removes them.
    package var abandonedRequests: [String] = []

    package static func read(_ spool: Spool, now: Date) throws(EntitlementError) -> IngestStatus {
        var status = try readSpool(spool)
        status.awaitingPurchases = AwaitingPurchase.all(in: spool.store).filter(\.isAwaiting)
        status.abandonedRequests = try spool.store.abandonedRequests(now: now).map { PathName.base(of: $0) }
        return status
    }

    private static func readSpool(_ spool: Spool) throws(EntitlementError) -> IngestStatus {
        let waiting = try spool.waiting()
        var oldest: Date?
        if let first = waiting.first { oldest = try? spool.read(first)?.request.receivedAt }
        var failures: [Failure] = []
        for name in try spool.failed() {
            do throws(EntitlementError) {
                let record = try spool.read(name, failed: true)
                failures.append(Failure(file: name, vendor: record?.request.vendor.rawValue ?? "", receivedAt: record?.request.receivedAt,
                                        reason: record?.failure ?? "unknown"))
            } catch {
                failures.append(Failure(file: name, vendor: "", receivedAt: nil, reason: error.description))
            }
        }
        // Requests still in prepared files: a webhook about to publish them, or none could.
        let held = spool.prepared.holding().count
        return IngestStatus(waiting: waiting.count + held, oldest: oldest, failures: failures)
    }
}
