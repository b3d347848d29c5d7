/// The keys live ingest writes into store records (docs/store-format.md). They live in the
/// model so that ingest, which writes them, and `verify`, which must accept them, share one
/// spelling.
package enum IngestRecordKeys {
    /// On a transaction or a renewal entry: the event that last set it.
    package static let appliedEvent = "applied_event"
    /// On a profile: the newest event applied to it.
    package static let lastEvent = "last_event"
    /// On a profile: the customer's other ids.
    package static let aliases = "aliases"
    /// On a profile: the purchases moved in or out.
    package static let transfers = "transfers"
    /// On an event record (`ingest/events/…`): when this copy of the store received the event.
    /// Two clones that both applied one event hold two records of it; a team store's merge keeps
    /// the one received first (`EventRecordMerge`).
    package static let receivedAt = "received_at"
}
