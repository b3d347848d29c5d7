import Glibc

/// Profile base names, one per line (each ending in a newline), sorted by their bytes:
/// the body of a completion cache. A prefix is found by a binary search over byte offsets
/// (as `look(1)` searches a sorted file). The body is the cache file read whole with
/// `pread` (`CacheFile`): a million names are about 20 MB, read in a few milliseconds.
struct SortedNameLines {
    let body: UnsafeRawBufferPointer

    /// Up to `limit` ids whose file names start with `prefix` (an escaped name prefix), in name order.
    func userIDs(withNamePrefix prefix: [UInt8], limit: Int) -> [String] {
        var found: [String] = []
        var start = firstLine(notBefore: prefix)
        while found.count < limit, start < body.count {
            let end = lineEnd(from: start)
            let name = UnsafeBufferPointer(start: (body.baseAddress! + start).assumingMemoryBound(to: UInt8.self), count: end - start)
            guard name.starts(with: prefix) else { break }
            if let id = ProfileFileName.userID(fromName: name) { found.append(id) }
            start = end + 1
        }
        return found
    }

    /// The offset of the first line that sorts at or after `key` (`body.count` if none).
    private func firstLine(notBefore key: [UInt8]) -> Int {
        // The smallest position whose next line start holds a line >= key; positions map
        // monotonically to line starts, so the predicate is monotonic too.
        var low = 0, high = body.count
        while low < high {
            let middle = low + (high - low) / 2
            let start = lineStart(atOrAfter: middle)
            if start >= body.count || !precedes(lineAt: start, key) { high = middle } else { low = middle + 1 }
        }
        return lineStart(atOrAfter: low)
    }

    private func lineStart(atOrAfter position: Int) -> Int {
        if position == 0 || position >= body.count { return min(position, body.count) }
        if body[position - 1] == UInt8(ascii: "\n") { return position }
        return lineEnd(from: position) + 1
    }

    /// The offset of the newline that ends the line holding `position` (`body.count` if there is none).
    private func lineEnd(from position: Int) -> Int {
        guard position < body.count,
              let found = memchr(body.baseAddress! + position, Int32(UInt8(ascii: "\n")), body.count - position) else { return body.count }
        return UnsafeRawPointer(found) - body.baseAddress!
    }

    /// Whether the line at `start` sorts before `key`.
    private func precedes(lineAt start: Int, _ key: [UInt8]) -> Bool {
        let length = lineEnd(from: start) - start
        let common = min(length, key.count)
        let order = key.withUnsafeBytes { memcmp(body.baseAddress! + start, $0.baseAddress!, common) }
        return order != 0 ? order < 0 : length < key.count
    }

    /// The lines for `names` (base names packed in `bytes`, at `ranges`): sorted, without duplicates.
    static func build(bytes: [UInt8], ranges: [Range<Int32>]) -> [UInt8] {
        var ranges = ranges
        bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!
            ranges.sort { left, right in
                let common = Int(min(left.count, right.count))
                let order = memcmp(base + Int(left.lowerBound), base + Int(right.lowerBound), common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + ranges.count)
        var previous: Range<Int32>?
        for range in ranges {
            let slice = bytes[Int(range.lowerBound)..<Int(range.upperBound)]
            if let previous, bytes[Int(previous.lowerBound)..<Int(previous.upperBound)].elementsEqual(slice) { continue }
            out += slice
            out.append(UInt8(ascii: "\n"))
            previous = range
        }
        return out
    }
}
