import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// Makes sure one idempotency key gives access at most once after a merge.
///
/// Two machines may each record a grant with the same `idempotency_key` before they
/// sync. Both records stay in the profile. Among the transactions that share a key,
/// the one recorded first (by `granted_at`, else `purchased_at`; then by store and
/// transaction id, byte order) is kept; every other one is revoked as a duplicate, from
/// its own start, so it never gave access:
/// `revoked_at` = its `starts_at` (else `purchased_at`), `revocation_reason` =
/// `duplicate_idempotency_key`, `revoked_by` = `entitlement merge`, and
/// `superseded_by` = the kept transaction's id (always the current one). A duplicate already revoked at or before
/// its start keeps its own revocation (revocations only move earlier; see `Revocation`).
enum DuplicateGrants {
    static let reason = "duplicate_idempotency_key"
    static let actor = "entitlement merge"
    static let supersededByKey = "superseded_by"

    /// `transactions` with duplicates revoked; `parsed` holds the same transactions, typed.
    static func resolve(_ transactions: [JSONObject], parsed: [Transaction]) -> [JSONObject] {
        var groups: [[UInt8]: [Int]] = [:]
        for (index, transaction) in parsed.enumerated() {
            guard let key = transaction.idempotencyKey, !key.isEmpty else { continue }
            groups[Array(key.utf8), default: []].append(index)
        }
        var result = transactions
        for members in groups.values where members.count > 1 {
            let keeper = members.min { isRecordedBefore(parsed[$0], parsed[$1]) }!
            for index in members where index != keeper {
                result[index] = supersede(result[index], start: parsed[index], by: parsed[keeper].transactionID)
            }
        }
        return result
    }

    /// True when `lhs` was recorded before `rhs` (a total order: store and id are unique).
    static func isRecordedBefore(_ lhs: Transaction, _ rhs: Transaction) -> Bool {
        let left = lhs.grantedAt ?? lhs.purchasedAt, right = rhs.grantedAt ?? rhs.purchasedAt
        if left != right { return left < right }
        let store = JSONOrder.bytes(lhs.store.rawValue, rhs.store.rawValue)
        if store != 0 { return store < 0 }
        return JSONOrder.bytes(lhs.transactionID, rhs.transactionID) < 0
    }

    private static func supersede(_ object: JSONObject, start transaction: Transaction, by keeperID: String) -> JSONObject {
        let startKey = transaction.startsAt == nil ? Transaction.CodingKeys.purchasedAt.rawValue : Transaction.CodingKeys.startsAt.rawValue
        var duplicate = JSONObject()
        duplicate[Transaction.CodingKeys.revokedAt.rawValue] = object[startKey]
        duplicate[Transaction.CodingKeys.revocationReason.rawValue] = .string(reason)
        duplicate[Transaction.CodingKeys.revokedBy.rawValue] = .string(actor)
        var duplicateObject = object
        Revocation(of: duplicate).apply(to: &duplicateObject)
        let merged = Revocation.merge(base: nil, ours: Revocation(of: object), theirs: Revocation(of: duplicateObject))
        var result = object
        merged.apply(to: &result)
        result[supersededByKey] = .string(keeperID)
        return result
    }
}
