/// Marks directories of git's cache tree (the index's `TREE` extension) as out of date, as
/// git's own `cache_tree_invalidate_path` does when it changes an entry below them.
///
/// The extension lists every directory depth first: its path component, NUL, the number of
/// index entries it covers (-1 when out of date), a space, its number of subdirectories, a
/// newline, then (when up to date) its tree's 20-byte id. An out-of-date directory keeps its
/// place and its subdirectories, and git recomputes it when it next needs it (`git commit`
/// does); the up-to-date ones let `git status` skip whole unchanged subtrees.
enum CacheTreeInvalidation {
    /// `tree` with each directory in `directories` ("" is the root; "profiles/ab" …) marked
    /// out of date; nil when the bytes are not a cache tree.
    static func invalidating(_ directories: Set<[UInt8]>, in tree: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(tree.count)
        var copied = 0, offset = 0
        // Each open directory: its path when it is one of `directories` (whose ancestors are
        // all in the set too), and how many subdirectories are still to come. Only those
        // directories' children need a path: everything else is copied unread.
        var stack: [(path: [UInt8]?, remaining: Int)] = []
        repeat {
            guard let nameEnd = tree[offset...].firstIndex(of: 0),
                  let (count, afterCount) = number(tree, nameEnd + 1, until: 0x20),
                  let (subtrees, afterSubtrees) = number(tree, afterCount, until: 0x0A), subtrees >= 0 else { return nil }
            var path: [UInt8]?
            if stack.isEmpty {
                path = []
            } else if let parent = stack[stack.count - 1].path {
                path = parent.isEmpty ? Array(tree[offset..<nameEnd]) : parent + [0x2F] + tree[offset..<nameEnd]
            }
            if let candidate = path, !directories.contains(candidate) { path = nil }
            let end = afterSubtrees + (count >= 0 ? 20 : 0)
            guard end <= tree.count else { return nil }
            if count >= 0, path != nil {
                out += tree[copied...nameEnd]
                out += Array("-1 \(subtrees)\n".utf8)
                copied = end
            }
            offset = end
            if !stack.isEmpty { stack[stack.count - 1].remaining -= 1 }
            stack.append((path, subtrees))
            while let last = stack.last, last.remaining == 0 { stack.removeLast() }
        } while offset < tree.count && !stack.isEmpty
        guard offset == tree.count, stack.isEmpty else { return nil }
        out += tree[copied...]
        return out
    }

    /// The decimal number (maybe negative) at `start`, and the offset after its `terminator`.
    private static func number(_ bytes: [UInt8], _ start: Int, until terminator: UInt8) -> (Int, Int)? {
        var index = start, negative = false, value = 0, digits = 0
        if index < bytes.count, bytes[index] == 0x2D { negative = true; index += 1 }
        while index < bytes.count, bytes[index] != terminator {
            let digit = Int(bytes[index]) - 0x30
            guard (0...9).contains(digit), digits < 10 else { return nil }
            value = value * 10 + digit
            digits += 1
            index += 1
        }
        guard digits > 0, index < bytes.count else { return nil }
        return (negative ? -value : value, index + 1)
    }

    /// Every directory above `path` ("a/b/c.json" gives "", "a", "a/b").
    static func directories(above path: String) -> [[UInt8]] {
        var result: [[UInt8]] = [[]]
        let parts = Array(path.utf8).split(separator: 0x2F, omittingEmptySubsequences: false).dropLast()
        var current: [UInt8] = []
        for part in parts {
            current = current.isEmpty ? Array(part) : current + [0x2F] + part
            result.append(current)
        }
        return result
    }
}
