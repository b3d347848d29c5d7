import EntitlementModel

/// What one mutation does and who does it: in a team store, the commit's message and author.
package struct ChangeDescription: Equatable, Sendable {
    /// One line, for example `grant premium to alice@example.com for 1m: Outage INC-42`.
    package var summary: String
    /// The actor, as recorded in the profile (`Name <email>` or a bare name).
    package var actor: String

    package init(summary: String, actor: String) {
        self.summary = summary
        self.actor = actor
    }
}

/// A hook into the store's write path: told before each file a locked write replaces, and
/// when the locked section ends. A plain store has none, so it pays nothing.
package protocol ChangeRecorder: AnyObject, Sendable {
    /// The lock is held; finish anything an interrupted earlier run left, then note `change`.
    func begin(_ change: ChangeDescription?) throws(EntitlementError)
    /// `paths` (under the store root) are about to be replaced, created or removed.
    func willWrite(_ paths: [String]) throws(EntitlementError)
    /// The locked section succeeded: record what was written as one change.
    func finish() throws(EntitlementError)
}
