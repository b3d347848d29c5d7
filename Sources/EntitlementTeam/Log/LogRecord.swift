import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// One line of `entitlement log`: a history event with its customer (and, in a team
/// store, the commit that recorded it).
package struct LogRecord: Sendable {
    package var event: HistoryEvent
    package var customer: String
    /// The entitlements the transaction gives (a manual grant's own; a purchase's by the configuration).
    package var entitlements: [String]
    /// The event's place in its profile's history: ties at one instant keep that order.
    var order: Int
    /// Team store: the commit that recorded the event.
    package var recorded: GitAudit.Commit?

    package init(_ event: HistoryEvent, customer: String, engine: StatusEngine, order: Int, recorded: GitAudit.Commit? = nil) {
        self.event = event
        self.recorded = recorded
        self.customer = customer
        self.order = order
        if let entitlement = event.transaction.entitlement, event.transaction.isManualGrant {
            entitlements = [entitlement]
        } else {
            entitlements = engine.configuration.entitlementIDs.filter { engine.transaction(event.transaction, unlocks: $0) }
        }
    }

    /// Oldest first; at one instant by customer (bytes), then in history order.
    package static func precedes(_ a: LogRecord, _ b: LogRecord) -> Bool {
        if a.event.at != b.event.at { return a.event.at < b.event.at }
        let customer = JSONKey.compare(a.customer, b.customer)
        if customer != 0 { return customer < 0 }
        return a.order < b.order
    }

    /// `records` sorted, and only the last `limit` when given.
    static func arrange(_ records: [LogRecord], limit: Int?) -> [LogRecord] {
        let sorted = records.sorted(by: precedes)
        guard let limit, sorted.count > limit else { return sorted }
        return Array(sorted.suffix(limit))
    }

    /// Every record of `profile` that `query` selects.
    package static func records(of profile: Profile, query: LogQuery, engine: StatusEngine) -> [LogRecord] {
        HistoryEvent.events(of: profile).enumerated().compactMap { index, event in
            query.matches(event, engine: engine) ? LogRecord(event, customer: profile.customerUserID, engine: engine, order: index) : nil
        }
    }
}
