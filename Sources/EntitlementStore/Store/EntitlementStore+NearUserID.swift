import EntitlementBasics

/// "Did you mean 'alice@customer.com'?" for a customer id that has no profile.
///
/// Answered from the kept list of profile names (`ProfileNameIndex`: one or two files, which
/// writers keep current), or, where the store has none yet, from the folders
/// (`ProfileNameListing`); no profile is opened. Only a miss pays for it (status, history, a
/// person's `check`, a grant that creates a customer), never an answer from an existing
/// profile, so `check`'s fast path stays as it is.
extension EntitlementStore {
    /// The stored customer id closest to `userID` by edit distance, when it is close enough
    /// by `Suggestion`'s rule (at most 1 to 3 edits, growing with the length); nil when none
    /// is, when the store cannot be listed, or for ids stored under their SHA-256 form.
    /// Distances are counted on the escaped file names, ASCII letters compared without case:
    /// for the usual ids (e-mail addresses, UUIDs, numbers) that is the id's own distance.
    package func nearUserID(to userID: String) -> String? {
        guard let escaped = ProfileFileName.escapedWithoutHashing(userID), !escaped.isEmpty else { return nil }
        var distance = NearNames(target: Array(escaped.utf8))
        let target = distance.target
        var best: (name: [UInt8], distance: Int)?
        func consider(_ name: UnsafeBufferPointer<UInt8>) {
            let limit = min(best.map { $0.distance - 1 } ?? 3, max(1, min(3, name.count / 3 + 1)))
            // The id itself has a profile only if the caller raced a writer; it is no suggestion.
            // Another case of it (distance 0 once folded) is the best one there is.
            guard limit >= 0, abs(name.count - target.count) <= limit, !name.elementsEqual(escaped.utf8),
                  let found = distance.within(limit, of: name), found < target.count else { return }
            best = (Array(name), found)
        }
        if ProfileNameIndex(store: self).forEachName(consider) {
            guard let kept = best?.name else { return nil }
            if let id = kept.withUnsafeBufferPointer(ProfileFileName.userID(fromName:)), fileSystem.exists(profilePath(for: id)) { return id }
            // A listed name whose profile is gone (moved away) is no suggestion: the folders decide.
            best = nil
        }
        nameListings.add(1)
        try? ProfileNameListing(profilesPath: profilesPath, layout: layout).forEachName { name in
            consider(name)
            return true
        }
        guard let best else { return nil }
        return best.name.withUnsafeBufferPointer(ProfileFileName.userID(fromName:))
    }
}

/// A bounded Damerau-Levenshtein distance (optimal string alignment) over bytes, with its
/// three rows kept from one name to the next: a store of a million names costs no allocation
/// per name. Only the band of cells within `limit` of the diagonal is computed (a cell off it
/// is more than `limit` on every path through it), and a row whose smallest value exceeds the
/// limit ends the comparison early: for a UUID against a million UUIDs, about 7 cells a row
/// for the few rows before that, rather than 37.
struct NearNames {
    let target: [UInt8]
    private var previous2: [Int]
    private var previous: [Int]
    private var current: [Int]

    /// `target` is compared with ASCII letters folded to lower case, as every name is.
    init(target: [UInt8]) {
        self.target = target.map(Self.folded)
        previous2 = Array(repeating: 0, count: target.count + 2)
        previous = previous2
        current = previous2
    }

    /// ASCII upper case folded to lower case; every other byte as it is.
    static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// The distance from `target` to `name`, or nil when it is more than `limit`; neither may be empty.
    mutating func within(_ limit: Int, of name: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = target.count
        guard limit >= 0, abs(name.count - n) <= limit else { return nil }
        // Every cell read below lies in the band of its row or is one of the borders set to
        // `outside` here: a value the limit rules out, as any cell off the band would be.
        let outside = limit + 1
        for j in 0...min(n, limit + 1) { previous[j] = j <= limit ? j : outside }
        var before: UInt8 = 0
        for i in 1...name.count {
            let byte = Self.folded(name[i - 1])
            let low = max(1, i - limit), high = min(n, i + limit)
            current[0] = i <= limit ? i : outside
            current[low - 1] = low > 1 ? outside : current[0]
            var smallest = current[low - 1]
            var j = low
            while j <= high {
                let cost = target[j - 1] == byte ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, target[j - 1] == before, target[j - 2] == byte { value = min(value, previous2[j - 2] + 1) }
                value = min(value, outside)
                current[j] = value
                smallest = min(smallest, value)
                j += 1
            }
            if high < n { current[high + 1] = outside }
            if smallest > limit { return nil }
            before = byte
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        let result = previous[n]
        return result <= limit ? result : nil
    }
}
