import EntitlementJSON
import EntitlementModel

/// Merges one transaction that both sides hold (matched by store and transaction id).
///
/// The revocation fields and `restored_revocations` merge as one record (`RevocationRecord`); `purchased_at` and `granted_at`
/// keep the earlier instant (`EarliestDate`); every other field, known or not (`vendor`
/// data, fields of newer versions), merges by `ValueMerge` with the greater value
/// winning where both sides changed it differently.
enum TransactionMerge {
    static func merge(base: JSONObject?, ours: JSONObject, theirs: JSONObject) -> JSONObject {
        // Both set by vendor events: the newer event's record stands whole (`EventStampMerge`).
        if let newer = EventStampMerge.transaction(ours: ours, theirs: theirs) { return newer }
        var merger = ValueMerge(policy: .greaterWins)
        var merged = merger.mergeObjects(base: base, ours: ours, theirs: theirs, path: "",
                                         skipping: Set(Revocation.keys + [RevocationRecord.restoredKey]))
        RevocationRecord.merge(base: base, ours: ours, theirs: theirs, into: &merged)
        for key in [Transaction.CodingKeys.purchasedAt.rawValue, Transaction.CodingKeys.grantedAt.rawValue] {
            if let earliest = EarliestDate.pick(key, ours: ours, theirs: theirs) { merged[key] = earliest }
        }
        return merged
    }
}
