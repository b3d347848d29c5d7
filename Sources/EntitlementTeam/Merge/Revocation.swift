import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// A transaction's revocation fields, merged as one unit so that a revocation's
/// time, reason and author always come from the same side.
///
/// Revocation is monotonic: a transaction revoked on either side stays revoked.
/// When both sides revoked it differently, the earlier `revoked_at` wins (access ends
/// at the first revocation anyone recorded); at the same instant, the greater group
/// in `JSONOrder` wins. Without `revoked_at` on either side, the fields merge like
/// any other (`ValueMerge`).
struct Revocation {
    static let keys = [
        Transaction.CodingKeys.revokedAt.rawValue, Transaction.CodingKeys.revocationReason.rawValue, Transaction.CodingKeys.revokedBy.rawValue,
    ]

    /// The group's fields as they are written (an explicit null is kept).
    var fields: JSONObject

    init(of transaction: JSONObject) {
        fields = JSONObject(Self.keys.compactMap { key in transaction[key].map { (key, $0) } })
    }

    /// When it was revoked, if it was.
    var revokedAt: Date? { fields[Self.keys[0]]?.stringValue.flatMap(ISODate.parse) }

    /// The group that stays when the two sides hold `ours` and `theirs`.
    static func merge(base: Revocation?, ours: Revocation, theirs: Revocation) -> Revocation {
        switch (ours.revokedAt, theirs.revokedAt) {
        case (nil, nil):
            var merger = ValueMerge(policy: .greaterWins)
            return Revocation(fields: merger.mergeObjects(base: base?.fields, ours: ours.fields, theirs: theirs.fields, path: ""))
        case (_?, nil): return ours
        case (nil, _?): return theirs
        case (let left?, let right?):
            if left != right { return left < right ? ours : theirs }
            return JSONOrder.compare(.object(ours.fields), .object(theirs.fields)) >= 0 ? ours : theirs
        }
    }

    /// Writes the group over `transaction`'s own revocation fields.
    func apply(to transaction: inout JSONObject) {
        for key in Self.keys { transaction[key] = fields[key] }
    }

    private init(fields: JSONObject) { self.fields = fields }
}
