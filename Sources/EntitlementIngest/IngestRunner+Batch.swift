import FoundationEssentials
import EntitlementModel
import EntitlementStore

extension IngestRunner {
    /// Applies one batch under the lock: ledger lookups, profile loads, the pure applier, then
    /// the profiles, the configuration and the event records in one journal.
    func applyBatch(_ batch: [(unit: IngestUnit, events: [IngestEvent])]) throws(EntitlementError) -> [UnitResult] {
        let change = ChangeDescription(summary: Self.summary(batch.flatMap { $0.events }), actor: actor)
        return try store.withWriteLock(change) { () throws(EntitlementError) -> [UnitResult] in
            var waiting = batch
            if skipsHandledSpoolFiles {
                let spool = Spool(store: store)
                waiting = batch.filter { spool.holds($0.unit) }
                guard !waiting.isEmpty else { return [] }
                store.recorder?.describe(ChangeDescription(summary: Self.summary(waiting.flatMap { $0.events }), actor: actor))
            }
            // App Store notifications without appAccountToken: their customer holds the original transaction.
            var customerIndex = AppStoreCustomerIndex(store: store, sweeps: sweepsForCustomers)
            let batch = PlayPurchaseHolders(store: store, sweeps: sweepsForCustomers).resolving(customerIndex.resolving(waiting))
            let all = batch.flatMap { $0.events }
            let ledger = EventLedger(store: store)
            let configuration = try store.loadConfiguration()
            var profiles: [String: Profile?] = [:]
            var loadFailures: [String: String] = [:]
            var seen: Set<String> = []
            var duplicate: Set<String> = []
            var unreadable: [String: String] = [:]
            for event in all {
                let key = "\(event.vendor.rawValue) \(event.id)"
                // Only the ledger makes a duplicate here: a second copy in this batch is settled
                // below (the first copy decides), so the event is still applied once.
                if seen.insert(key).inserted {
                    switch ledger.entry(vendor: event.vendor, id: event.id) {
                    case .recorded: duplicate.insert(key)
                    case .unreadable(let problem):
                        unreadable[key] = "its ledger record cannot be read (\(problem)); fix or remove the file, then run 'entitlement ingest' again"
                    case .absent: break
                    }
                }
                for user in EventApplier.customers(of: event) where profiles[user] == nil && loadFailures[user] == nil {
                    do throws(EntitlementError) {
                        profiles[user] = .some(try store.loadProfile(userID: user))
                    } catch {
                        loadFailures[user] = error.description
                    }
                }
            }
            var applier = EventApplier(configuration: configuration, profiles: profiles)
            applier.load = { (user) throws(EntitlementError) in try store.loadProfile(userID: user) }
            var outcomes: [String: EventOutcome] = [:]
            var recorded: Set<String> = []
            for event in all.sorted(by: IngestEvent.applicationOrder) {
                let key = "\(event.vendor.rawValue) \(event.id)"
                guard outcomes[key] == nil else { continue }  // the first copy in a batch decides
                if let problem = unreadable[key] {
                    outcomes[key] = .failed(problem)
                    continue
                }
                if duplicate.contains(key), !recorded.contains(key) {
                    outcomes[key] = .duplicate
                    continue
                }
                if let failure = EventApplier.customers(of: event).compactMap({ loadFailures[$0] }).first {
                    outcomes[key] = .failed(failure)
                    continue
                }
                outcomes[key] = applier.apply(event)
                recorded.insert(key)
            }
            var records: [EntitlementStore.FileChange] = []
            var results: [UnitResult] = []
            var counted: Set<String> = []
            var awaited: [String: AwaitingPurchase] = [:]
            for (unit, events) in batch {
                var result = UnitResult(unit: unit, results: [])
                for var event in events {
                    let key = "\(event.vendor.rawValue) \(event.id)"
                    // An event for a transferred purchase applied to its holder: recorded as such.
                    if let holder = applier.holders[key] {
                        event.addressedTo = event.customer
                        event.customer = holder
                    }
                    // A second copy of an event in the same batch is a duplicate of the first.
                    let outcome = counted.insert(key).inserted ? outcomes[key] ?? .duplicate : .duplicate
                    result.results.append((event, outcome))
                    if outcome == .applied { customerIndex.note(event) }
                    if let word = outcome.ledgerOutcome {
                        let record = AuditRecord(event: event, receivedAt: unit.request.receivedAt, outcome: word, body: unit.request.body)
                        records.append(.init(path: EventLedger.relativePath(vendor: event.vendor, id: event.id), bytes: record.bytes))
                        if let token = event.effects.awaitingPurchase {
                            var awaiting = awaited[token] ?? AwaitingPurchase.read(token, in: store)
                            awaiting.notify(event.type, at: event.time)
                            awaited[token] = awaiting
                        }
                    }
                }
                if events.isEmpty { result.results.append((nil, .noChange("no events in the request"))) }
                results.append(result)
            }
            records += awaited.keys.sorted().compactMap { awaited[$0]?.change }
            for (original, holder) in applier.movedAppStoreOriginals { customerIndex.moved(original, to: holder) }
            records += customerIndex.changes.keys.sorted().compactMap { customerIndex.changes[$0] }
            let changed = applier.changed.compactMap { applier.profiles[$0] ?? nil }
            let newConfiguration = applier.configuration != configuration ? applier.configuration : nil
            for warning in try store.save(configuration: newConfiguration, profiles: changed, alongside: records) {
                _ = warning  // the profile-id index is a cache; the next save repairs it
            }
            return results
        }
    }

    /// A team store's commit message: the vendors, the count and the event ids.
    static func summary(_ events: [IngestEvent]) -> String {
        let vendors = Set(events.map(\.vendor.rawValue)).sorted().joined(separator: ", ")
        let ids = events.prefix(20).map(\.id).joined(separator: ", ") + (events.count > 20 ? ", …" : "")
        return "ingest \(vendors.isEmpty ? "events" : vendors): \(events.count) event\(events.count == 1 ? "" : "s") (\(ids))"
    }
}
