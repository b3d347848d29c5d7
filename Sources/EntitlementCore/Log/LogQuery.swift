import FoundationEssentials

/// What `entitlement log` lists: a pure filter over history events (no files, no clock).
struct LogQuery: Equatable, Sendable {
    /// The event names `--event` takes, and the `event` field of a record.
    enum Event: String, CaseIterable, Sendable {
        case grant, revocation, restore
        /// A purchase moved between customers. No command records one yet, so it matches
        /// nothing; it is accepted so that scripts written against the contract keep working.
        case transfer
        /// A store purchase or renewal: it enters the store through `import`.
        case `import`

        init(_ kind: HistoryEvent.Kind) {
            switch kind {
            case .purchase: self = .import
            case .grant: self = .grant
            case .revocation: self = .revocation
            case .restore: self = .restore
            }
        }
    }

    /// At or after (inclusive).
    var since: Date?
    /// Before (exclusive).
    var until: Date?
    /// The recorded actor: the whole `Name <email>`, the name alone or the email alone.
    var actor: String?
    var entitlement: String?
    /// Nil: every event.
    var events: Set<Event>?
    /// Only the N most recent matching events (still printed oldest first).
    var limit: Int?

    func matches(_ event: HistoryEvent, engine: StatusEngine) -> Bool {
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
