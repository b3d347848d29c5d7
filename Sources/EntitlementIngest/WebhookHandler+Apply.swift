import EntitlementBasics
import EntitlementModel
import EntitlementStore

extension WebhookHandler {
    /// Applies a request `accept` spooled, with the events it read, together with the other
    /// requests waiting in the spool (a webhook killed after its answer, or one that found the
    /// store busy), at most one batch of them; waits for the lock at most `applyWait` seconds.
    /// Returns a line for the server's log when something was not applied (left for the next
    /// request or `ingest`).
    package func apply(_ accepted: Accepted) -> String? {
        let vendor = accepted.request.vendor.rawValue
        do throws(EntitlementError) {
            try Spool(store: store).publish(accepted.spooled)
        } catch {
            // Durable where it is: the next request or `ingest` publishes and applies it.
            return "\(vendor): spooled, not applied yet: \(error.description)"
        }
        var applying = store
        applying.lockTimeout = applyWait
        var runner = IngestRunner(store: applying, authenticator: authenticator, actor: actor)
        // Sweeping every profile for an App Store customer takes seconds on a big store: the
        // webhook uses the index only; `ingest` sweeps.
        runner.sweepsForCustomers = false
        // Requests another webhook applies meanwhile are left out under the lock.
        runner.skipsHandledSpoolFiles = true
        let own = IngestUnit(source: .spool(accepted.name), request: accepted.request)
        var prepared: [(unit: IngestUnit, parsed: IngestRunner.ParsedUnit)] = [(own, .events(accepted.events))]
        for unit in waiting(besides: accepted.name, limit: runner.batchSize) {
            prepared.append((unit, runner.parse(unit)))
        }
        let problems: [String]
        do throws(EntitlementError) {
            problems = try runner.run(prepared: prepared).problems
        } catch {
            // Spooled is acknowledged: the next request or `ingest` applies it.
            return "\(vendor): spooled, not applied yet: \(error.description)"
        }
        return problems.isEmpty ? nil : "\(vendor): spooled; \(problems.joined(separator: "; "))"
    }

    /// Up to `limit` other requests waiting in the spool, oldest first. Failed requests, and
    /// files that cannot be read, are left to `ingest`, which retries and reports them.
    private func waiting(besides name: String, limit: Int) -> [IngestUnit] {
        let spool = Spool(store: store)
        var units: [IngestUnit] = []
        for other in (try? spool.waiting()) ?? [] where other != name && units.count < limit {
            guard let record = (try? spool.read(other)) ?? nil else { continue }
            units.append(IngestUnit(source: .spool(other), request: record.request))
        }
        return units
    }
}
