import EntitlementJSON

/// How a merge marks a grant that repeated another's idempotency key (docs/team-store.md,
/// "Merge rules"): the model knows the marks, so `history` can show the voiding as what
/// it is wherever the profile came from.
extension Transaction {
    /// The `revocation_reason` of a duplicate voided by a merge.
    package static let duplicateKeyReason = "duplicate_idempotency_key"
    /// The raw field naming the grant a duplicate repeated.
    package static let supersededByKey = "superseded_by"

    /// The transaction this one duplicated, when a merge voided it for that.
    package var duplicateOf: String? {
        guard revocationReason == Self.duplicateKeyReason || restoredRevocations.contains(where: { $0.revocationReason == Self.duplicateKeyReason }) else { return nil }
        return raw[Self.supersededByKey]?.stringValue
    }
}
