import EntitlementJSON
import EntitlementModel

/// `verify`'s checks for likely typos in a hand-written transaction: a misspelled
/// field is kept as an unknown key and silently changes what the transaction grants
/// (`expire_at` for `expires_at` turns a subscription into lifetime access).
enum TransactionTypos {
    /// The typed fields, and the two the tool writes into the raw object: a restore's record,
    /// and a team merge's mark (`DuplicateGrants.supersededByKey`, spelt here because the team
    /// layer sits above this one).
    static let knownKeys = Transaction.CodingKeys.allCases.map(\.rawValue)
        + [Transaction.restoredRevocationsKey, "superseded_by", Transaction.stackedOnKey, Transaction.movedByMergeKey, IngestRecordKeys.appliedEvent]

    /// Problems of one transaction object; `prefix` is its field path (`transactions[2]`).
    static func problems(_ transaction: JSONObject, prefix: String) -> [(field: String, message: String)] {
        // Every unknown key, near a known one or not: a vendor's own data belongs in `vendor`.
        var found = UnknownKeys.problems(transaction, known: knownKeys, prefix: prefix)
        guard let typeName = transaction["type"]?.stringValue else { return found }
        let type = TransactionType(rawValue: typeName)
        if !TransactionType.known.contains(type) {
            let hint = nearest(typeName, in: TransactionType.known.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
            found.append(("\(prefix).type", "unknown transaction type '\(typeName)'\(hint) (documented: \(TransactionType.known.map(\.rawValue).joined(separator: ", ")))"))
        } else if type.isSubscription, transaction["expires_at"] == nil {
            found.append(("\(prefix).expires_at", "a \(typeName) transaction without expires_at never expires: it grants lifetime access (write \"expires_at\": null to mean that)"))
        }
        return found
    }

    /// The candidate 1 or 2 edits away from `word`, if any (the closest, then the first).
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        var best: (String, Int)? = nil
        for candidate in candidates {
            let distance = editDistance(Array(word.utf8), Array(candidate.utf8), limit: 2)
            if distance >= 1, distance <= 2, distance < (best?.1 ?? 3) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance, or `limit + 1` once it is certainly above `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
