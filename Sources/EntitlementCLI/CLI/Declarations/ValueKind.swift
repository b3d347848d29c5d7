/// What an option or argument takes, beyond its placeholder: help, shell completions and
/// the man page read it to offer the right candidates (ids from the store, files, fixed choices).
enum ValueKind: Equatable, Sendable {
    case userID
    case profileID
    case entitlementID
    case transactionID
    case date
    case duration
    case seconds
    case count
    case file
    case directory
    /// Free text (a reason, an actor, a key): nothing to complete.
    case text
    /// One of a fixed list, as typed on the command line.
    case choice([String])
}
