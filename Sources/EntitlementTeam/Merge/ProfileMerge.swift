import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// The three-way merge of one profile file. Pure and deterministic; both sides are
/// treated alike, so `merge(base, a, b)` and `merge(base, b, a)` write the same bytes.
///
/// - Transactions: the union of both sides, matched by store and transaction id (a
///   transaction is never dropped, even if one side deleted it); one that both hold
///   merges field by field (`TransactionMerge`); then duplicate idempotency keys are
///   resolved (`DuplicateGrants`). If both sides list the same transactions in the same
///   order, that order stays; otherwise they are sorted by `purchased_at`, store, id.
/// - `created_at`: the earliest of the two.
/// - Everything else (`profile_id`, `custom_attributes`, `renewal_info`, unknown fields):
///   `ValueMerge`, the greater value winning where both sides changed it differently.
enum ProfileMerge {
    typealias K = Profile.CodingKeys

    static func merge(base: Profile?, ours: Profile, theirs: Profile) throws(MergeFailure) -> Profile {
        guard ours.customerUserID.utf8.elementsEqual(theirs.customerUserID.utf8) else {
            throw .conflicts([MergeConflict(field: K.customerUserID.rawValue, message: "the sides hold different users ('\(Terminal.escape(ours.customerUserID))' and '\(Terminal.escape(theirs.customerUserID))')")])
        }
        let left = ours.json.objectValue!, right = theirs.json.objectValue!
        if JSONOrder.same(.object(left), .object(right)) { return ours }
        // A base of another user is no common ancestor of these sides.
        let ancestor = base.flatMap { $0.customerUserID.utf8.elementsEqual(ours.customerUserID.utf8) ? $0 : nil }
        let origin = ancestor?.json.objectValue
        var merger = ValueMerge(policy: .greaterWins)
        var merged = merger.mergeObjects(base: origin, ours: left, theirs: right, path: "",
                                         skipping: [K.transactions.rawValue, K.createdAt.rawValue])
        let created = K.createdAt.rawValue
        merged[created] = EarliestDate.pick(created, ours: left, theirs: right)
            ?? merger.merge(base: origin?[created], ours: left[created], theirs: right[created], path: created)
        merged[K.transactions.rawValue] = .array(try transactions(base: ancestor, ours: ours, theirs: theirs).map(JSONValue.object))
        do {
            return try Profile(json: .object(merged))
        } catch {
            throw .conflicts([MergeConflict(field: error.path, message: "the merged value would be invalid: \(error.message)")])
        }
    }

    private static func transactions(base: Profile?, ours: Profile, theirs: Profile) throws(MergeFailure) -> [JSONObject] {
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
        return DuplicateGrants.resolve(merged.map(\.object), parsed: merged.map(\.parsed))
    }

    /// Transactions by "store NUL id" (bytes), and their order in the file.
    private static func index(_ transactions: [Transaction]) -> (order: [[UInt8]], objects: [[UInt8]: JSONObject]) {
        var order: [[UInt8]] = []
        var objects: [[UInt8]: JSONObject] = [:]
        for transaction in transactions {
            let key = Array(transaction.store.rawValue.utf8) + [0] + Array(transaction.transactionID.utf8)
            order.append(key)
            objects[key] = transaction.json.objectValue!
        }
        return (order, objects)
    }
}
