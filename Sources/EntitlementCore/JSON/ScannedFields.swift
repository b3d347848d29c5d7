import FoundationEssentials

/// The values of one object's known fields, by `FieldTable` slot, read straight from the
/// bytes with the rules of `FieldReader` (`null` is absent; a wrong type is an error).
/// Any error gives up (`Unsupported`): the tree path then reports it, with its path.
struct ScannedFields {
    let table: FieldTable
    /// The value of each slot; reset for every object.
    private(set) var values: [ScannedValue]
    /// Per slot, the last few strings made and where their bytes were (`internWays` a
    /// slot, replaced in turn): transactions repeat product ids, stores, types and the
    /// original ids of interleaved subscriptions, which then cost no allocation.
    private var internRanges: [Range<Int>]
    private var internTexts: [String]
    private var internNext: [Int]
    static let internWays = 8

    init(_ table: FieldTable) {
        self.table = table
        values = Array(repeating: .absent, count: table.keys.count)
        internRanges = Array(repeating: -1..<(-1), count: table.keys.count * Self.internWays)
        internTexts = Array(repeating: "", count: table.keys.count * Self.internWays)
        internNext = Array(repeating: 0, count: table.keys.count)
    }

    /// Slots already filled in the current object (a repeated key is the tree path's to report).
    private var seen: UInt64 = 0

    /// Starts a new object: every slot absent.
    mutating func begin() {
        values.withUnsafeMutableBufferPointer { values in
            for slot in values.indices { values[slot] = .absent }
        }
        seen = 0
    }

    /// Fills `slot`; gives up when the object already had that key.
    @inline(__always)
    mutating func set(_ slot: Int, _ value: ScannedValue) throws(Unsupported) {
        guard seen & (1 << UInt64(slot)) == 0 else { throw Unsupported() }
        seen |= 1 << UInt64(slot)
        values[slot] = value
    }

    /// The slot of the key at `key`, or nil when the table does not know it.
    @inline(__always)
    func slot(_ key: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        table.slot(bytes: UnsafeBufferPointer(rebasing: bytes[key]))
    }

    /// Reads the object at the cursor into the slots and returns its byte range; `unknown`
    /// scans the value of each key the table does not know.
    mutating func read(_ cursor: inout ByteCursor, unknown: (inout ByteCursor, Range<Int>) throws(Unsupported) -> Void) throws(Unsupported) -> Range<Int> {
        begin()
        let start = cursor.index
        try cursor.expect(UInt8(ascii: "{"))
        var unknownKeys = KeyList()
        var first = true
        while let key = try cursor.nextKey(first: &first) {
            if let slot = slot(key, cursor.bytes) {
                try set(slot, try cursor.value())
            } else {
                try unknownKeys.add(key, cursor.bytes)
                try unknown(&cursor, key)
            }
        }
        return start..<cursor.index
    }

    // MARK: Typed reads (FieldReader's rules)

    func optionalString(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String? {
        switch values[slot] {
        case .absent, .null: return nil
        case .string(let range, _): return Self.makeString(range, bytes)
        default: throw Unsupported()
        }
    }

    /// Like `optionalString`, remembering recent strings of the field for the next objects.
    mutating func repeatedString(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String? {
        switch values[slot] {
        case .absent, .null: return nil
        case .string(let range, _):
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

    /// A non-empty string (`FieldReader.identifier`).
    func identifier(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String {
        guard let text = try optionalString(slot, bytes), !text.isEmpty else { throw Unsupported() }
        return text
    }

    func optionalDate(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Date? {
        switch values[slot] {
        case .absent, .null: return nil
        case .string(let range, _):
            guard let date = ISODate.parse(utf8: UnsafeBufferPointer(rebasing: bytes[range])) else { throw Unsupported() }
            return date
        default: throw Unsupported()
        }
    }

    func optionalBool(_ slot: Int) throws(Unsupported) -> Bool? {
        switch values[slot] {
        case .absent, .null: return nil
        case .bool(let flag): return flag
        default: throw Unsupported()
        }
    }

    /// A finite number (`FieldReader.optionalNumber`: `Double` of the literal text).
    func optionalNumber(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Double? {
        switch values[slot] {
        case .absent, .null: return nil
        case .number(let range):
            guard let number = Double(Self.makeString(range, bytes)), number.isFinite else { throw Unsupported() }
            return number
        default: throw Unsupported()
        }
    }

    /// A whole number (`FieldReader.optionalInt`: `Int` of the literal text).
    func optionalInt(_ slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> Int? {
        switch values[slot] {
        case .absent, .null: return nil
        case .number(let range):
            guard let number = Int(Self.makeString(range, bytes)) else { throw Unsupported() }
            return number
        default: throw Unsupported()
        }
    }

    /// Absent, null or an object: the range of the object, if any.
    func optionalObject(_ slot: Int) throws(Unsupported) -> Range<Int>? {
        switch values[slot] {
        case .absent, .null: return nil
        case .object(let range): return range
        default: throw Unsupported()
        }
    }

    /// The scanner accepted the bytes as UTF-8 already.
    @inline(__always)
    static func makeString(_ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

/// The keys of one object that no table knows, for the duplicate-key check.
struct KeyList {
    private var keys: [Range<Int>] = []

    /// Adds `key`; gives up when the object already had it, or has too many keys to compare.
    mutating func add(_ key: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) {
        guard keys.count < ByteCursor.maximumSkippedKeys else { throw Unsupported() }
        for earlier in keys where ByteCursor.same(bytes, earlier, key) { throw Unsupported() }
        keys.append(key)
    }
}
