import EntitlementJSON

/// A `--duration` grant made while another manual grant of the same entitlement was open
/// starts where that one ends: it is stacked on it. The file says so (`stacked_on`), so
/// that a merge can tell when the grant it waited for was revoked meanwhile on another
/// clone (docs/team-store.md, "Merge rules").
extension Transaction {
    package static let stackedOnKey = "stacked_on"
    /// Written by a merge that moved a stacked grant: its start and end before the move.
    package static let movedByMergeKey = "moved_by_merge"

    /// The id of the manual grant this one was stacked after, if any.
    package var stackedOn: String? {
        get { raw[Self.stackedOnKey]?.stringValue }
        set { raw[Self.stackedOnKey] = newValue.map(JSONValue.string) }
    }
}
