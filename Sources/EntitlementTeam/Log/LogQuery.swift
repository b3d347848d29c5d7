import FoundationEssentials
import EntitlementRules

/// What `entitlement log` lists: a pure filter over history events (no files, no clock).
package struct LogQuery: Equatable, Sendable {
    /// The event names `--event` takes, and the `event` field of a record.
    package enum Event: String, CaseIterable, Sendable {
        case grant, revocation, restore
        /// A purchase moved between customers (`transfer`, RevenueCat `TRANSFER`): one record
        /// per transaction on each side.
        case transfer
        /// A store purchase or renewal: it enters the store through `import`.
        case `import`

        package init(_ kind: HistoryEvent.Kind) {
            switch kind {
            case .purchase: self = .import
            case .grant: self = .grant
            case .revocation: self = .revocation
            case .restore: self = .restore
            case .transfer: self = .transfer
            }
        }
    }

    /// At or after (inclusive).
    package var since: Date?
    /// Before (exclusive).
    package var until: Date?
    /// The recorded actor: the whole `Name <email>`, the name alone or the email alone.
    package var actor: String?
    package var entitlement: String?
    /// Nil: every event.
    package var events: Set<Event>?
    /// Only the N most recent matching events (still printed oldest first).
    package var limit: Int?

    package init(since: Date? = nil, until: Date? = nil, actor: String? = nil, entitlement: String? = nil,
                 events: Set<Event>? = nil, limit: Int? = nil) {
        self.since = since
        self.until = until
        self.actor = actor
        self.entitlement = entitlement
        self.events = events
        self.limit = limit
    }

    package func matches(_ event: HistoryEvent, engine: StatusEngine) -> Bool {
        if let since, event.at < since { return false }
        if let until, event.at >= until { return false }
        if let events, !events.contains(Event(event.kind)) { return false }
        if let entitlement, !engine.transaction(event.transaction, unlocks: entitlement) { return false }
        if let actor {
            guard let recorded = event.actor else { return false }
            guard recorded == actor || GitIdentity(actor: recorded).matches(actor: actor) else { return false }
        }
        return true
    }
}
