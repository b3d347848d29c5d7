import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules

/// The merge's safety net: after every rule has run, a merged profile
/// that gives less access at the merge's time than each side gave is reported for review.
/// "Less" means: no access where both sides had some, or access that ends before both
/// sides' ends. The comparison reads no clock: the time is the merge's stamp.
enum AccessComparison {
    static func reviews(ours: Profile, theirs: Profile, merged: Profile, engine: StatusEngine, at date: Date) -> [MergeReview] {
        let left = reach(ours, engine, date), right = reach(theirs, engine, date), result = reach(merged, engine, date)
        var reviews: [MergeReview] = []
        for id in engine.entitlementIDs(for: merged) {
            guard let a = left[id], let b = right[id] else { continue }  // a side without access meant none
            let kept = result[id]
            guard kept.map({ $0 < min(a, b) }) ?? true else { continue }
            let now = kept.map { "access until \(describe($0))" } ?? "no access"
            reviews.append(MergeReview(kind: .lessAccess, customer: merged.customerUserID, entitlement: id, transactionID: nil,
                                       message: "after the merge \(id) gives \(now) at \(ISODate.format(date)); one side gave access until \(describe(a)), the other until \(describe(b))"))
        }
        return reviews
    }

    /// For each entitlement active at `date`, when its access ends (`distantFuture`: never).
    private static func reach(_ profile: Profile, _ engine: StatusEngine, _ date: Date) -> [String: Date] {
        var ends: [String: Date] = [:]
        for level in engine.accessLevels(for: profile, at: date) where level.isActive {
            ends[level.id] = level.isLifetime ? .distantFuture : (level.expiresAt ?? .distantFuture)
        }
        return ends
    }

    private static func describe(_ date: Date) -> String { date == .distantFuture ? "never ending" : ISODate.format(date) }
}
