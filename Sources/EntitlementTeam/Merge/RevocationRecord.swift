import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// A transaction's revocation and its restores, merged as one ordered record,
/// so that a merge never undoes a `restore`.
///
/// A revocation is named by its instant (`revoked_at`): one `revoke` stamps each
/// transaction it takes once. A restore names the revocation it undid (the entry in
/// `restored_revocations` keeps that `revoked_at`). So the record is a set of
/// revocations and a set of restores of them, and merging is their union:
/// - `restored_revocations`: the union of both sides, one entry per revoked instant
///   (where both sides restored the same revocation, the earlier restore), oldest first;
/// - the current revocation: each side's, unless some side restored it; of what is left,
///   `Revocation.merge` chooses (the earlier instant wins).
/// A restore can only name a revocation made before it, so of a revocation and its
/// restore the later one, the restore, always wins; a revocation made after a restore
/// names a new instant and stands. Symmetric in the two sides.
enum RevocationRecord {
    static let restoredKey = Transaction.restoredRevocationsKey
    static let revokedAtKey = RestoredRevocation.CodingKeys.revokedAt.rawValue
    static let restoredAtKey = RestoredRevocation.CodingKeys.restoredAt.rawValue

    /// Writes the merged revocation fields and `restored_revocations` over `merged`.
    static func merge(base: JSONObject?, ours: JSONObject, theirs: JSONObject, into merged: inout JSONObject) {
        let restores = union(entries(ours), entries(theirs))
        let undone = Set(restores.compactMap { date($0[revokedAtKey]) })
        func standing(_ transaction: JSONObject?) -> Revocation? {
            guard let transaction else { return nil }
            let revocation = Revocation(of: transaction)
            if let at = revocation.revokedAt, undone.contains(at) { return Revocation(of: JSONObject()) }
            return revocation
        }
        let revocation = Revocation.merge(base: standing(base), ours: standing(ours)!, theirs: standing(theirs)!)
        revocation.apply(to: &merged)
        merged[restoredKey] = restores.isEmpty ? nil : .array(restores.map(JSONValue.object))
    }

    private static func entries(_ transaction: JSONObject) -> [JSONObject] {
        guard case .array(let items)? = transaction[restoredKey] else { return [] }
        return items.compactMap { $0.objectValue }
    }

    /// One entry per revoked instant, the earliest restore (then the greater entry) kept,
    /// ordered by revoked instant. Entries without a readable `revoked_at` are kept as they are.
    private static func union(_ left: [JSONObject], _ right: [JSONObject]) -> [JSONObject] {
        var byInstant: [Date: JSONObject] = [:]
        var unreadable: [JSONObject] = []
        for entry in left + right {
            guard let at = date(entry[revokedAtKey]) else {
                if !unreadable.contains(where: { JSONOrder.same(.object($0), .object(entry)) }) { unreadable.append(entry) }
                continue
            }
            guard let kept = byInstant[at] else { byInstant[at] = entry; continue }
            byInstant[at] = precedes(entry, kept) ? entry : kept
        }
        let ordered = byInstant.sorted { $0.key < $1.key }.map(\.value)
        return ordered + unreadable.sorted { JSONOrder.compare(.object($0), .object($1)) < 0 }
    }

    /// The earlier restore; at the same instant the greater entry (a total order).
    private static func precedes(_ a: JSONObject, _ b: JSONObject) -> Bool {
        let x = date(a[restoredAtKey]) ?? .distantFuture, y = date(b[restoredAtKey]) ?? .distantFuture
        if x != y { return x < y }
        return JSONOrder.compare(.object(a), .object(b)) > 0
    }

    private static func date(_ value: JSONValue?) -> Date? { value?.stringValue.flatMap(ISODate.parse) }
}
