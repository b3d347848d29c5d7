import FoundationEssentials

/// The values of one object's known fields, by `FieldTable` slot, read straight from the
/// bytes with the rules of `FieldReader` (`null` is absent; a wrong type is an error).
/// Any error gives up (`Unsupported`): the tree path then reports it, with its path.
///
/// `read` and the typed reads are `@inlinable`, with their state `@usableFromInline`: the
/// check scanner (Rules) passes `read` a closure, which only a caller that sees the body can
/// specialize; across the module boundary it cost `check --stdin` about a tenth of its
/// instructions (docs/performance.md, "Layered modules").
@usableFromInline
package struct ScannedFields {
    @usableFromInline package let table: FieldTable
    /// The value of each slot; reset for every object.
    @usableFromInline package internal(set) var values: [ScannedValue]
    /// Per slot, the last few strings made and where their bytes were (`internWays` a
    /// slot, replaced in turn): transactions repeat product ids, stores, types and the
    /// original ids of interleaved subscriptions, which then cost no allocation. Only
    /// for a reader that makes strings (`interning`): the scanner of `check` makes none.
    @usableFromInline var internRanges: [Range<Int>] = []
    @usableFromInline var internTexts: [String] = []
    @usableFromInline var internNext: [Int] = []
    @usableFromInline static let internWays = 8

    /// Each key's bytes followed by a quote (`quotedKeys[quotedRanges[slot]]`), compared
    /// at the cursor when the key is the one predicted.
    @usableFromInline let quotedKeys: [UInt8]
    @usableFromInline let quotedRanges: [Range<Int>]
    /// Per slot, the slot of the key that followed it in the last object that had it (-1:
    /// none known yet); at `table.keys.count`, the first key of the last object, and one
    /// past, the key that followed a key the table does not know. Objects of an array are
    /// usually written with their keys in one order, some keys absent from some objects
    /// (a consumable has no `expires_at`): each key is first compared with the one that
    /// followed the previous key last time, so an absent key costs one miss, not a miss at
    /// every later position as a prediction by position did.
    @usableFromInline var successor: [Int]

    package init(_ table: FieldTable, interning: Bool = false) {
        self.table = table
        if interning {
            internRanges = Array(repeating: -1..<(-1), count: table.keys.count * Self.internWays)
            internTexts = Array(repeating: "", count: table.keys.count * Self.internWays)
            internNext = Array(repeating: 0, count: table.keys.count)
        }
        var quotedKeys: [UInt8] = []
        var quotedRanges: [Range<Int>] = []
        for key in table.keys {
            precondition(!key.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }, "plain field names")
            let start = quotedKeys.count
            quotedKeys.append(contentsOf: key.utf8)
            quotedKeys.append(UInt8(ascii: "\""))
            quotedRanges.append(start..<quotedKeys.count)
        }
        self.quotedKeys = quotedKeys
        self.quotedRanges = quotedRanges
        successor = Array(repeating: -1, count: table.keys.count + 2)
        values = Array(repeating: .absent, count: table.keys.count)
    }

    /// Slots already filled in the current object (a repeated key is the tree path's to report).
    @usableFromInline var seen: UInt64 = 0

    /// Starts a new object: every slot absent.
    @inlinable
    package mutating func begin() {
        values.withUnsafeMutableBufferPointer { values in
            for slot in values.indices { values[slot] = .absent }
        }
        seen = 0
    }

    /// Fills `slot`; gives up when the object already had that key.
    @inlinable @inline(__always)
    package mutating func set(_ slot: Int, _ value: ScannedValue) throws(Unsupported) {
        guard seen & (1 << UInt64(slot)) == 0 else { throw Unsupported() }
        seen |= 1 << UInt64(slot)
        values[slot] = value
    }

    /// The slot of the key at `key`, or nil when the table does not know it.
    @inlinable @inline(__always)
    package func slot(_ key: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        table.slot(bytes: UnsafeBufferPointer(rebasing: bytes[key]))
    }

    /// Reads the object at the cursor into the slots and returns its byte range; `unknown`
    /// scans the value of each key the table does not know.
    @inlinable
    package mutating func read(_ cursor: inout ByteCursor, unknown: (inout ByteCursor, Range<Int>) throws(Unsupported) -> Void) throws(Unsupported) -> Range<Int> {
        begin()
        let start = cursor.index
        try cursor.expect(UInt8(ascii: "{"))
        let unknownKeys = cursor.beginKeys()
        defer { cursor.endKeys(unknownKeys) }
        var first = true
        let unknownSlot = successor.count - 1
        var previous = successor.count - 2
        while try cursor.toNextKey(first: &first) {
            var slot = -1
            let predicted = successor[previous]
            if predicted >= 0, skipPredictedKey(predicted, &cursor) {
                slot = predicted
            } else {
                let (key, _) = try cursor.string()
                if let known = self.slot(key, cursor.bytes) {
                    slot = known
                } else {
                    try cursor.toValue()
                    try cursor.addKey(key, since: unknownKeys)
                    try unknown(&cursor, key)
                }
                successor[previous] = slot
            }
            if slot >= 0 {
                try cursor.toValue()
                try set(slot, try cursor.value())
                previous = slot
            } else {
                previous = unknownSlot
            }
        }
        return start..<cursor.index
    }

    /// True, with the cursor past the key, when the key at the cursor is `slot`'s.
    @inlinable @inline(__always)
    func skipPredictedKey(_ slot: Int, _ cursor: inout ByteCursor) -> Bool {
        let range = quotedRanges[slot]
        return quotedKeys.withUnsafeBufferPointer { cursor.skipKey(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    // MARK: Typed reads (FieldReader's rules; the others in ScannedFields+Typed)

    /// Like `optionalString`, remembering recent strings of the field for the next objects.
    @inlinable
    package mutating func repeatedString(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String? {
        switch values[slot] {
        case .absent, .null: return nil
        case .string(let range, _):
            guard !internNext.isEmpty else { return Self.makeString(range, bytes) }
            let first = slot * Self.internWays
            let found = internRanges.withUnsafeBufferPointer { ranges -> Int? in
                for way in first..<(first + Self.internWays) where ranges[way].count == range.count && ranges[way].lowerBound >= 0
                    && ByteCursor.same(bytes, ranges[way], range) {
                    return way
                }
                return nil
            }
            if let found { return internTexts[found] }
            let text = Self.makeString(range, bytes)
            let way = first + internNext[slot]
            internNext[slot] = (internNext[slot] + 1) % Self.internWays
            internRanges[way] = range
            internTexts[way] = text
            return text
        default: throw Unsupported()
        }
    }

    /// The scanner accepted the bytes as UTF-8 already.
    @inlinable @inline(__always)
    package static func makeString(_ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
