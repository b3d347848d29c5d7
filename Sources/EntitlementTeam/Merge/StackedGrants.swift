import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// A stacked grant whose base was revoked concurrently.
///
/// Ben extends Alice's grant G1 by two weeks: his G2 is stacked on G1 (`stacked_on`) and
/// starts at G1's end. Meanwhile Ana, on another clone, revokes G1. Neither meant Alice to
/// wait for G1's old end with nothing. So when the side whose revocation of G1 stands does
/// not hold G2 (Ana did not know it), G2 starts at the revocation, or at its own grant time
/// if that is later, and keeps its length; its old start and end are kept under
/// `moved_by_merge`. Each move is reported for review. A later merge of the moved grant
/// with an unmoved copy takes the move (the copy is unchanged from their common base).
enum StackedGrants {
    typealias K = Transaction.CodingKeys

    /// Moves the stacked grants in `merged` (objects and their parsed forms, same order);
    /// `revokerHolds(g1, g2)` tells whether the side whose revocation of G1 won holds G2.
    static func resolve(_ merged: inout [JSONObject], parsed: [Transaction], customer: String,
                        revokerHolds: (Transaction, Transaction) -> Bool) -> [MergeReview] {
        var manual: [String: Int] = [:]
        for (index, transaction) in parsed.enumerated() where transaction.isManualGrant { manual[transaction.transactionID] = index }
        var reviews: [MergeReview] = []
        for (index, grant) in parsed.enumerated() where grant.isManualGrant && grant.revokedAt == nil {
            guard let baseID = grant.stackedOn, let baseIndex = manual[baseID], let revokedAt = parsed[baseIndex].revokedAt,
                  let end = grant.expiresAt else { continue }
            let start = max(revokedAt, grant.grantedAt ?? grant.purchasedAt)
            guard start < grant.effectiveStart, !revokerHolds(parsed[baseIndex], grant) else { continue }
            let newEnd = start.addingTimeInterval(end.timeIntervalSince(grant.effectiveStart))
            var object = merged[index]
            object[Transaction.movedByMergeKey] = .object(JSONObject([
                (K.startsAt.rawValue, .string(ISODate.format(grant.effectiveStart))), (K.expiresAt.rawValue, .string(ISODate.format(end))),
            ]))
            object[K.startsAt.rawValue] = start == grant.purchasedAt ? nil : .string(ISODate.format(start))
            object[K.expiresAt.rawValue] = .string(ISODate.format(newEnd))
            merged[index] = object
            reviews.append(MergeReview(
                kind: .stackedGrantMoved, customer: customer, entitlement: grant.entitlement ?? "?", transactionID: grant.transactionID,
                message: "grant \(grant.transactionID) was stacked on \(baseID), which was revoked at \(ISODate.format(revokedAt)) on another clone; "
                    + "it now runs \(ISODate.format(start)) to \(ISODate.format(newEnd)) instead of \(ISODate.format(grant.effectiveStart)) to \(ISODate.format(end))"))
        }
        return reviews
    }
}
