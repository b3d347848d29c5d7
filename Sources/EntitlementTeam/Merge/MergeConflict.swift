/// One field that a merge could not combine meaningfully, by its path in the file.
package struct MergeConflict: Equatable, Sendable, CustomStringConvertible {
    /// The field's path, as in other messages: `entitlements.premium.description`.
    var field: String
    var message: String

    package var description: String { "\(field): \(message)" }
}

/// What a merge does when both sides changed one value differently.
enum ConflictPolicy: Sendable {
    /// Take the greater value in `JSONOrder` (profiles: every replica picks the same).
    case greaterWins
    /// Record a `MergeConflict` (config.json: a person must decide).
    case report
}
