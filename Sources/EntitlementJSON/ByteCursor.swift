import Glibc

/// The byte decoder gave up: the document is malformed, or uses something the fast path
/// leaves to the tree (an escape in a key, deep nesting). The tree path then reads it,
/// and reports the error, with line and column, exactly as it always has.
@usableFromInline
package struct Unsupported: Error {
    @inlinable package init() {}
}

/// A strict forward scanner over a JSON text that accepts only what `JSONParser` accepts.
///
/// It never builds a value: strings are byte ranges, numbers are checked and located,
/// objects and arrays are skipped (with the parser's checks: syntax, UTF-8, control
/// characters, duplicate keys). It gives up (`Unsupported`) on anything it does not
/// handle itself, including every error, so that the tree path has the last word.
///
/// Its methods are `@inlinable` (NIOCore's `ByteBuffer` does the same): the scanners that
/// call them in hot loops live in other modules (Rules, Model), and a call across a module
/// boundary is neither inlined nor specialized otherwise (docs/performance.md, "Layered modules").
/// The type itself is `@usableFromInline` as well: Swift 6.3 serializes the `@inlinable`
/// members of a `package` type for other modules only when the type is marked so, and
/// otherwise calls them, silently; so does every type of the byte layer.
@usableFromInline
package struct ByteCursor {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package var index = 0
    /// Keys of the objects being checked for duplicates, innermost last (`beginKeys`).
    /// Internal so that a scanner reused from file to file can lend the cursor its storage.
    @usableFromInline package var keyLog: [Range<Int>] = []

    /// Skipped objects nest at most this deep; deeper ones go to the tree path.
    @usableFromInline static let maximumSkipDepth = 64
    /// A skipped object with more keys than this goes to the tree path (its duplicate check is quadratic).
    @usableFromInline static let maximumSkippedKeys = 64

    @inlinable
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte at the cursor, or 0 at the end (0 is never valid where a token is expected).
    @inlinable @inline(__always)
    package func peek() -> UInt8 { index < bytes.count ? bytes[index] : 0 }

    @inlinable @inline(__always)
    package mutating func skipWhitespace() {
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    /// The whitespace from the cursor, which is on a byte at or below 0x20. A newline and
    /// the indentation after it, the usual run in a pretty-printed file, is taken in one step.
    @inlinable
    mutating func skipWhitespaceRun() {
        if bytes[index] == 0x0A, index + 9 <= bytes.count, let base = UnsafeRawPointer(bytes.baseAddress) {
            let others = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index + 1, as: UInt64.self)) ^ 0x2020_2020_2020_2020
            index += 1 + (others == 0 ? 8 : others.trailingZeroBitCount / 8)
            if peek() > 0x20 { return }
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte <= 0x20 else { return }  // any token
            switch byte {
            case 0x0A, 0x0D, 0x09: index += 1
            case 0x20:
                // Indentation: the spaces of eight bytes at once.
                if index + 8 <= bytes.count, let base = UnsafeRawPointer(bytes.baseAddress) {
                    let others = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ 0x2020_2020_2020_2020
                    index += others == 0 ? 8 : others.trailingZeroBitCount / 8
                } else {
                    index += 1
                }
            default: return
            }
        }
    }

    @inlinable @inline(__always)
    package mutating func expect(_ byte: UInt8) throws(Unsupported) {
        guard peek() == byte else { throw Unsupported() }
        index += 1
    }

    // MARK: Objects and arrays

    /// Enters an object at the cursor (after whitespace).
    @inlinable
    package mutating func beginObject() throws(Unsupported) {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
    }

    /// The next key of the object being read, with the cursor on its value; nil after the
    /// closing brace. `first` is true before the first key and is cleared here.
    @inlinable
    package mutating func nextKey(first: inout Bool) throws(Unsupported) -> Range<Int>? {
        guard try toNextKey(first: &first) else { return nil }
        let (key, _) = try string()
        try toValue()
        return key
    }

    /// Moves to the opening quote of the object's next key and returns true, or past the
    /// closing brace and returns false. `first` is true before the first key and is cleared here.
    @inlinable @inline(__always)
    mutating func toNextKey(first: inout Bool) throws(Unsupported) -> Bool {
        skipWhitespace()
        if first {
            first = false
            if peek() == UInt8(ascii: "}") { index += 1; return false }
        } else {
            switch peek() {
            case UInt8(ascii: "}"): index += 1; return false
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            default: throw Unsupported()
            }
        }
        guard peek() == UInt8(ascii: "\"") else { throw Unsupported() }
        return true
    }

    /// From just after a key's closing quote to its value: the colon and the whitespace around it.
    @inlinable @inline(__always)
    mutating func toValue() throws(Unsupported) {
        // As written: a colon, one space and the value.
        if bytes.count - index > 2, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == 0x20, bytes[index + 2] > 0x20 {
            index += 2
            return
        }
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
    }

    /// True, with the cursor just after the key, when the key at the cursor (on its opening
    /// quote) is `quoted`: a key's bytes followed by its closing quote. A key with no quote,
    /// backslash or control character in it, so the bytes are the whole string.
    @inlinable @inline(__always)
    mutating func skipKey(_ quoted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count - index > quoted.count,
              ShortBytes.equal(bytes.baseAddress! + index + 1, quoted.baseAddress!, count: quoted.count) else { return false }
        index += 1 + quoted.count
        return true
    }

    /// Enters an array at the cursor (after whitespace).
    @inlinable
    mutating func beginArray() throws(Unsupported) {
        skipWhitespace()
        try expect(UInt8(ascii: "["))
    }

    /// True with the cursor on the next element, false after the closing bracket.
    @inlinable
    package mutating func nextElement(first: inout Bool) throws(Unsupported) -> Bool {
        skipWhitespace()
        if first {
            first = false
            if peek() == UInt8(ascii: "]") { index += 1; return false }
            return true
        }
        switch peek() {
        case UInt8(ascii: "]"): index += 1; return false
        case UInt8(ascii: ","): index += 1; skipWhitespace(); return true
        default: throw Unsupported()
        }
    }

    /// True when the bytes of two ranges are the same.
    @inlinable @inline(__always)
    package func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool { Self.same(bytes, a, b) }

    @inlinable @inline(__always)
    package static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && (a.isEmpty || ShortBytes.equal(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, count: a.count))
    }

    /// True when the range holds exactly `text`'s bytes.
    @inlinable @inline(__always)
    package func equals(_ range: Range<Int>, _ text: StaticString) -> Bool { Self.equals(bytes, range, text) }

    @inlinable @inline(__always)
    package static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount && ShortBytes.equal(bytes.baseAddress! + range.lowerBound, text.utf8Start, count: range.count)
    }

    // MARK: Values

    /// Scans the value at the cursor (after whitespace), skipping objects and arrays whole.
    @inlinable
    package mutating func value(depth: Int = 0) throws(Unsupported) -> ScannedValue {
        switch peek() {
        case UInt8(ascii: "\""):
            let (range, ascii) = try string()
            return .string(range, ascii: ascii)
        case UInt8(ascii: "{"):
            let start = index
            try skipObject(depth: depth)
            return .object(start..<index)
        case UInt8(ascii: "["):
            let start = index
            try skipArray(depth: depth)
            return .array(start..<index)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    @inlinable
    mutating func literal(_ text: StaticString) throws(Unsupported) {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, text.utf8Start, count) == 0 else { throw Unsupported() }
        index += count
    }

    @inlinable
    mutating func skipObject(depth: Int) throws(Unsupported) {
        guard depth < Self.maximumSkipDepth else { throw Unsupported() }
        index += 1
        let keys = beginKeys()
        defer { endKeys(keys) }
        var first = true
        while let key = try nextKey(first: &first) {
            try addKey(key, since: keys)
            _ = try value(depth: depth + 1)
        }
    }

    // MARK: Duplicate keys

    /// Starts the duplicate-key check of an object's keys; pass the mark to `addKey` and `endKeys`.
    @inlinable @inline(__always)
    package func beginKeys() -> Int { keyLog.count }

    /// Adds a key of the object begun at `mark`; gives up when the object already had it, or
    /// has too many keys to compare (the check is quadratic).
    @inlinable
    package mutating func addKey(_ key: Range<Int>, since mark: Int) throws(Unsupported) {
        guard keyLog.count - mark < Self.maximumSkippedKeys else { throw Unsupported() }
        for earlier in keyLog[mark...] where same(earlier, key) { throw Unsupported() }
        keyLog.append(key)
    }

    /// Ends the check begun at `mark`, forgetting that object's keys.
    @inlinable @inline(__always)
    package mutating func endKeys(_ mark: Int) {
        if keyLog.count > mark { keyLog.removeSubrange(mark...) }
    }

    @inlinable
    mutating func skipArray(depth: Int) throws(Unsupported) {
        guard depth < Self.maximumSkipDepth else { throw Unsupported() }
        index += 1
        var first = true
        while try nextElement(first: &first) { _ = try value(depth: depth + 1) }
    }

    /// A number as the parser's grammar has it; the range of its text.
    @inlinable
    package mutating func number() throws(Unsupported) -> Range<Int> {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        let first = peek()
        guard first >= 0x30, first <= 0x39 else { throw Unsupported() }
        if first == 0x30 { index += 1 } else { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard isDigit(peek()) else { throw Unsupported() }
            skipDigits()
        }
        if peek() | 0x20 == UInt8(ascii: "e") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard isDigit(peek()) else { throw Unsupported() }
            skipDigits()
        }
        return start..<index
    }

    @inlinable @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inlinable
    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
}
