import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// Merges one transaction that both sides hold (matched by store and transaction id).
///
/// The revocation fields merge as a unit (`Revocation`); `purchased_at` and `granted_at`
/// keep the earlier instant (`EarliestDate`); every other field, known or not (`vendor`
/// data, fields of newer versions), merges by `ValueMerge` with the greater value
/// winning where both sides changed it differently.
enum TransactionMerge {
    static func merge(base: JSONObject?, ours: JSONObject, theirs: JSONObject) -> JSONObject {
        var merger = ValueMerge(policy: .greaterWins)
        var merged = merger.mergeObjects(base: base, ours: ours, theirs: theirs, path: "", skipping: Set(Revocation.keys))
        let revocation = Revocation.merge(base: base.map(Revocation.init(of:)), ours: Revocation(of: ours), theirs: Revocation(of: theirs))
        revocation.apply(to: &merged)
        for key in [Transaction.CodingKeys.purchasedAt.rawValue, Transaction.CodingKeys.grantedAt.rawValue] {
            if let earliest = EarliestDate.pick(key, ours: ours, theirs: theirs) { merged[key] = earliest }
        }
        return merged
    }
}
