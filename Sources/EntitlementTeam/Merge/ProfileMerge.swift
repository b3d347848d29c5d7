import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The three-way merge of one profile file. Pure and deterministic; both sides are
/// treated alike, so `merge(base, a, b)` and `merge(base, b, a)` write the same bytes.
///
/// - Transactions: the union of both sides, matched by store and transaction id (a
///   transaction is never dropped, even if one side deleted it); one that both hold
///   merges field by field (`TransactionMerge`); then duplicate idempotency keys are
///   resolved as of the merge's `MergeStamp` (`DuplicateGrants`), after stacked grants
///   whose base was revoked concurrently are moved (`StackedGrants`). If both sides list the same transactions in the same
///   order, that order stays; otherwise they are sorted by `purchased_at`, store, id.
/// - `created_at`: the earliest of the two.
/// - `aliases` and `transfers` (live ingest, `transfer`): the union of both (`AppendOnlyLists`).
/// - Transactions, `renewal_info` entries and `last_event` that live ingest set on both sides
///   from different events: the newer event's record, whole (`EventStampMerge`).
/// - Everything else (`profile_id`, `custom_attributes`, `renewal_info`, unknown fields):
///   `ValueMerge`, the greater value winning where both sides changed it differently.
enum ProfileMerge {
    typealias K = Profile.CodingKeys

    static func merge(base: Profile?, ours: Profile, theirs: Profile, stamp: MergeStamp) throws(MergeFailure) -> Profile {
        try mergeReviewed(base: base, ours: ours, theirs: theirs, stamp: stamp).profile
    }

    /// The merge, and what in it a person should review (`MergeReview`).
    static func mergeReviewed(base: Profile?, ours: Profile, theirs: Profile, stamp: MergeStamp) throws(MergeFailure) -> (profile: Profile, reviews: [MergeReview]) {
        guard ours.customerUserID.utf8.elementsEqual(theirs.customerUserID.utf8) else {
            throw .conflicts([MergeConflict(field: K.customerUserID.rawValue, message: "the sides hold different users ('\(Terminal.escape(ours.customerUserID))' and '\(Terminal.escape(theirs.customerUserID))')")])
        }
        let left = ours.json.objectValue!, right = theirs.json.objectValue!
        if JSONOrder.same(.object(left), .object(right)) { return (ours, []) }
        // A base of another user is no common ancestor of these sides.
        let ancestor = base.flatMap { $0.customerUserID.utf8.elementsEqual(ours.customerUserID.utf8) ? $0 : nil }
        let origin = ancestor?.json.objectValue
        var merger = ValueMerge(policy: .greaterWins)
        var merged = merger.mergeObjects(base: origin, ours: left, theirs: right, path: "",
                                         skipping: [K.transactions.rawValue, K.createdAt.rawValue])
        let created = K.createdAt.rawValue
        merged[created] = EarliestDate.pick(created, ours: left, theirs: right)
            ?? merger.merge(base: origin?[created], ours: left[created], theirs: right[created], path: created)
        ProfileMerge.keepEveryProfileID(&merged, ours: ours, theirs: theirs)
        AppendOnlyLists.merge(&merged, ours: left, theirs: right)
        EventStampMerge.apply(to: &merged, ours: left, theirs: right)
        var stamp = stamp
        stamp.at = stamp.time(ours: ours, theirs: theirs)
        let (items, reviews) = try transactions(base: ancestor, ours: ours, theirs: theirs, stamp: stamp)
        merged[K.transactions.rawValue] = .array(items.map(JSONValue.object))
        do {
            return (try Profile(json: .object(merged)), reviews)
        } catch {
            throw .conflicts([MergeConflict(field: error.path, message: "the merged value would be invalid: \(error.message)")])
        }
    }

    private static func transactions(base: Profile?, ours: Profile, theirs: Profile, stamp: MergeStamp) throws(MergeFailure) -> ([JSONObject], [MergeReview]) {
        let origin = index(base?.transactions ?? [])
        let left = index(ours.transactions), right = index(theirs.transactions)
        var merged: [(key: [UInt8], object: JSONObject, parsed: Transaction)] = []
        for key in Set(left.order + right.order) {
            let object: JSONObject
            switch (left.objects[key], right.objects[key]) {
            case (let a?, let b?): object = TransactionMerge.merge(base: origin.objects[key], ours: a, theirs: b)
            case (let a?, nil): object = a
            case (nil, let b?): object = b
            case (nil, nil): continue
            }
            let path = "transactions[\(merged.count)]"
            do {
                merged.append((key, object, try Transaction(json: FieldReader(object, path: path))))
            } catch {
                throw .conflicts([MergeConflict(field: error.path, message: "the merged transaction would be invalid: \(error.message)")])
            }
        }
        if left.order == right.order {
            let position = Dictionary(uniqueKeysWithValues: left.order.enumerated().map { ($1, $0) })
            merged.sort { position[$0.key]! < position[$1.key]! }
        } else {
            merged.sort { a, b in
                a.parsed.purchasedAt != b.parsed.purchasedAt ? a.parsed.purchasedAt < b.parsed.purchasedAt : a.key.lexicographicallyPrecedes(b.key)
            }
        }
        var objects = merged.map(\.object)
        let parsed = merged.map(\.parsed)
        var reviews = StackedGrants.resolve(&objects, parsed: parsed, customer: ours.customerUserID) { revoked, stacked in
            // The sides whose revocation of the base is the one that stands.
            let revokers = [left, right].filter { side in
                side.objects[key(revoked)].flatMap { Revocation(of: $0).revokedAt } == revoked.revokedAt
            }
            return revokers.contains { $0.objects[key(stacked)] != nil }
        }
        let (resolved, voided) = DuplicateGrants.resolve(objects, parsed: parsed, stamp: stamp)
        reviews += voided.map { duplicate in
            MergeReview(kind: .duplicateVoided, customer: ours.customerUserID, entitlement: duplicate.entitlement, transactionID: duplicate.id,
                        message: "grant \(duplicate.id) repeated the idempotency key of \(duplicate.keeper) and was voided at \(ISODate.format(stamp.at ?? .distantPast))")
        }
        return (resolved, reviews)
    }

    /// Every profile id either side gave out still resolves: the merged
    /// `profile_id` is chosen as any other field is, and every other id either side held
    /// joins `profile_id_aliases` (sorted by bytes).
    private static func keepEveryProfileID(_ merged: inout JSONObject, ours: Profile, theirs: Profile) {
        let chosen = merged[K.profileID.rawValue]?.stringValue
        var seen = Set<[UInt8]>()
        var aliases: [String] = []
        for id in [ours.profileID, theirs.profileID].compactMap({ $0 }) + ours.profileIDAliases + theirs.profileIDAliases
        where id != chosen && seen.insert(Array(id.utf8)).inserted {
            aliases.append(id)
        }
        aliases.sort { JSONOrder.bytes($0, $1) < 0 }
        merged[ProfileIdentity.aliasesKey] = aliases.isEmpty ? nil : .array(aliases.map(JSONValue.string))
    }

    private static func key(_ transaction: Transaction) -> [UInt8] {
        Array(transaction.store.rawValue.utf8) + [0] + Array(transaction.transactionID.utf8)
    }

    /// Transactions by "store NUL id" (bytes), and their order in the file.
    private static func index(_ transactions: [Transaction]) -> (order: [[UInt8]], objects: [[UInt8]: JSONObject]) {
        var order: [[UInt8]] = []
        var objects: [[UInt8]: JSONObject] = [:]
        for transaction in transactions {
            order.append(key(transaction))
            objects[key(transaction)] = transaction.json.objectValue!
        }
        return (order, objects)
    }
}
