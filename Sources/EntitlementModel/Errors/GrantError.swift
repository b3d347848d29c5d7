import FoundationEssentials

/// Why `GrantPlanner` refused a grant. Compared with `==` in tests; shown by `EntitlementError`.
package enum GrantError: Error, Equatable, Sendable {
    /// The idempotency key names an earlier grant of something else.
    case idempotencyKeyReused(key: String, usedFor: String, requested: String)
    /// The grant would start before now.
    case startsInPast(Date)
    /// The grant would end after the last date the store can write.
    case endsAfterLatestDate(Date)
    /// The grant would end at or before its start.
    case endsBeforeStart(end: Date, start: Date)
    /// The grant would create a profile whose user id the tool refuses for new profiles.
    case newUserID(UserID.Problem)
}
