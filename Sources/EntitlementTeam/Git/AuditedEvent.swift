import EntitlementRules

/// A history event with the commit that recorded it: git provenance wraps the engine's
/// `HistoryEvent` from the team side, so the engine never knows about git.
package struct AuditedEvent: Equatable, Sendable {
    package var event: HistoryEvent
    /// Team store: the commit that recorded this event (nil in a plain store, or when no
    /// commit could be matched).
    package var recorded: GitAudit.Commit?

    package init(_ event: HistoryEvent, recorded: GitAudit.Commit? = nil) {
        self.event = event
        self.recorded = recorded
    }

    /// Team store: whether the recorded actor is the commit's author (nil when either is unknown).
    package var actorMatchesAuthor: Bool? {
        guard let recorded, let actor = event.actor else { return nil }
        return recorded.author.matches(actor: actor)
    }
}
