import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Makes sure one idempotency key gives access at most once after a merge.
///
/// Two machines may each record a grant with the same `idempotency_key` before they
/// sync. Both records stay in the profile. Among the transactions that share a key,
/// the one recorded first (by `granted_at`, else `purchased_at`; then by store and
/// transaction id, byte order) is kept; every other one is voided by the merge at the
/// merge's time (`MergeStamp`), so at any time from then on it gives no access, whatever
/// the time it was scheduled to start: `revoked_at` = the merge's time,
/// `revocation_reason` = `duplicate_idempotency_key`, `revoked_by` = the person who
/// synced, and `superseded_by` = the kept transaction's id (always the current one).
/// A duplicate already revoked at or before the merge keeps its own revocation
/// (revocations only move earlier; see `Revocation`).
enum DuplicateGrants {
    static let reason = Transaction.duplicateKeyReason
    static let supersededByKey = Transaction.supersededByKey

    /// `transactions` with duplicates voided; `parsed` holds the same transactions, typed.
    /// The duplicates this merge voided (not those voided before) are returned for review.
    /// `stamp.at` is set (`ProfileMerge` resolves it).
    static func resolve(_ transactions: [JSONObject], parsed: [Transaction], stamp: MergeStamp)
        -> ([JSONObject], [(id: String, keeper: String, entitlement: String)]) {
        var groups: [[UInt8]: [Int]] = [:]
        for (index, transaction) in parsed.enumerated() {
            guard let key = transaction.idempotencyKey, !key.isEmpty else { continue }
            groups[Array(key.utf8), default: []].append(index)
        }
        var result = transactions
        var voided: [(id: String, keeper: String, entitlement: String)] = []
        for members in groups.values.sorted(by: { $0[0] < $1[0] }) where members.count > 1 {
            let keeper = members.min { isRecordedBefore(parsed[$0], parsed[$1]) }!
            for index in members where index != keeper {
                let keeperID = parsed[keeper].transactionID
                result[index] = supersede(result[index], parsed: parsed[index], by: keeperID, stamp: stamp)
                if !parsed[index].isRevoked(at: stamp.at ?? .distantFuture) {
                    voided.append((parsed[index].transactionID, keeperID, parsed[index].entitlement ?? parsed[index].productID ?? "?"))
                }
            }
        }
        return (result, voided)
    }

    /// True when `lhs` was recorded before `rhs` (a total order: store and id are unique).
    static func isRecordedBefore(_ lhs: Transaction, _ rhs: Transaction) -> Bool {
        let left = lhs.grantedAt ?? lhs.purchasedAt, right = rhs.grantedAt ?? rhs.purchasedAt
        if left != right { return left < right }
        let store = JSONOrder.bytes(lhs.store.rawValue, rhs.store.rawValue)
        if store != 0 { return store < 0 }
        return JSONOrder.bytes(lhs.transactionID, rhs.transactionID) < 0
    }

    private static func supersede(_ object: JSONObject, parsed: Transaction, by keeperID: String, stamp: MergeStamp) -> JSONObject {
        var result = object
        result[supersededByKey] = .string(keeperID)
        let at = stamp.at ?? .distantFuture
        if let revokedAt = parsed.revokedAt, revokedAt <= at { return result }
        var duplicate = JSONObject()
        duplicate[Transaction.CodingKeys.revokedAt.rawValue] = .string(ISODate.format(at))
        duplicate[Transaction.CodingKeys.revocationReason.rawValue] = .string(reason)
        duplicate[Transaction.CodingKeys.revokedBy.rawValue] = .string(stamp.actor())
        Revocation(of: duplicate).apply(to: &result)
        return result
    }
}
