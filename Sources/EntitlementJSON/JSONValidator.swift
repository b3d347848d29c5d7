import Glibc

/// A yes-or-don't-know check that bytes are one JSON object as `JSONParser` reads it,
/// for the files `find` and `summary` rule out without decoding.
///
/// One pass, one loop, no values: an explicit stack of open containers (bits), strings
/// skipped eight bytes at a time, each object's keys kept as fingerprints for the
/// duplicate check. True means the parser accepts the bytes and they hold an object.
/// False means "decode it to know": the bytes are damaged, or use something this check
/// leaves to the parser (a `\u` or `\/` escape, a byte-order mark, nesting deeper than 64).
package struct JSONValidator: ~Copyable {
    /// Deeper nesting answers false (the parser allows more, and reports what it finds).
    static let maximumDepth = 64
    /// An object's first keys are each compared with those before them; past this many,
    /// the object's keys are sorted by fingerprint when it closes, and neighbours compared.
    static let comparedKeys = 32

    /// A key: its fingerprint (length and first and last eight bytes), and where it is, to confirm a match.
    private struct Key {
        var fingerprint: UInt64
        var start: Int
        var count: Int
    }

    /// What the check keeps of an open object: where its keys start, and a one-word Bloom
    /// filter of their fingerprints (a key whose bit is clear cannot repeat an earlier one).
    private struct Object {
        var base: Int
        var bloom: UInt64
    }

    /// The keys of the open objects, innermost last (a buffer that grows, reused from file to file).
    private var keys: UnsafeMutablePointer<Key>
    private var keyCapacity = 64
    private var keyCount = 0
    private let objects = UnsafeMutablePointer<Object>.allocate(capacity: maximumDepth)
    private var objectCount = 0

    package init() {
        keys = .allocate(capacity: keyCapacity)
    }

    deinit {
        keys.deallocate()
        objects.deallocate()
    }

    /// True when `raw` is one JSON object and nothing else (whitespace around it allowed),
    /// as the parser reads it.
    package mutating func isWellFormedObject(_ raw: UnsafeRawBufferPointer) -> Bool {
        keyCount = 0
        objectCount = 0
        return raw.withMemoryRebound(to: UInt8.self) { scan($0) }
    }

    private enum State { case value, key, firstKey, firstElement, afterValue }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        var index = 0
        // Bit d of `arrays` is set when the container at depth d is an array.
        var arrays: UInt64 = 0
        var depth = 0
        index = Self.skipWhitespace(bytes, index)
        guard index < count, bytes[index] == UInt8(ascii: "{") else { return false }
        var state = State.value
        while true {
            index = Self.skipWhitespace(bytes, index)
            if depth == 0, state == .afterValue { return index == count }
            guard index < count else { return false }
            let byte = bytes[index]
            switch state {
            case .value, .firstElement:
                if state == .firstElement, byte == UInt8(ascii: "]") {
                    index += 1
                    depth -= 1
                    state = .afterValue
                    continue
                }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth < Self.maximumDepth else { return false }
                    let isArray = byte == UInt8(ascii: "[")
                    if isArray {
                        arrays |= 1 << UInt64(depth)
                    } else {
                        arrays &= ~(1 << UInt64(depth))
                        objects[objectCount] = Object(base: keyCount, bloom: 0)
                        objectCount += 1
                    }
                    depth += 1
                    index += 1
                    state = isArray ? .firstElement : .firstKey
                    continue
                case UInt8(ascii: "\""):
                    guard let end = Self.stringEnd(bytes, index) else { return false }
                    index = end
                case UInt8(ascii: "t"): guard Self.literal(bytes, index, "true") else { return false }; index += 4
                case UInt8(ascii: "f"): guard Self.literal(bytes, index, "false") else { return false }; index += 5
                case UInt8(ascii: "n"): guard Self.literal(bytes, index, "null") else { return false }; index += 4
                default:
                    guard let end = Self.numberEnd(bytes, index) else { return false }
                    index = end
                }
                state = .afterValue
            case .firstKey, .key:
                if state == .firstKey, byte == UInt8(ascii: "}") {
                    index += 1
                    depth -= 1
                    _ = closeObject(bytes)
                    state = .afterValue
                    continue
                }
                guard byte == UInt8(ascii: "\""), let end = Self.stringEnd(bytes, index), addKey(bytes, index + 1..<end - 1) else { return false }
                index = Self.skipWhitespace(bytes, end)
                guard index < count, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
                state = .value
            case .afterValue:
                let inArray = arrays & (1 << UInt64(depth - 1)) != 0
                switch byte {
                case UInt8(ascii: ","): state = inArray ? .value : .key
                case UInt8(ascii: "]") where inArray: depth -= 1
                case UInt8(ascii: "}") where !inArray:
                    depth -= 1
                    guard closeObject(bytes) else { return false }
                default: return false
                }
                index += 1
            }
        }
    }

    /// Records a key of the innermost object; false when it repeats one of the object's first keys.
    @inline(__always)
    private mutating func addKey(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let key = Key(fingerprint: Self.fingerprint(bytes, range), start: range.lowerBound, count: range.count)
        let object = objects + (objectCount - 1)
        let bit: UInt64 = 1 << (key.fingerprint >> 58)
        if object.pointee.bloom & bit != 0, keyCount - object.pointee.base <= Self.comparedKeys {
            for index in object.pointee.base..<keyCount where keys[index].fingerprint == key.fingerprint {
                if Self.same(bytes, keys[index], key) { return false }
            }
        }
        object.pointee.bloom |= bit
        if keyCount == keyCapacity { growKeys() }
        keys[keyCount] = key
        keyCount += 1
        return true
    }

    private mutating func growKeys() {
        let larger = UnsafeMutablePointer<Key>.allocate(capacity: keyCapacity * 2)
        larger.moveInitialize(from: keys, count: keyCount)
        keys.deallocate()
        keys = larger
        keyCapacity *= 2
    }

    /// Ends the innermost object; false when it has more than `comparedKeys` keys and one repeats.
    private mutating func closeObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        objectCount -= 1
        let base = objects[objectCount].base
        defer { keyCount = base }
        guard keyCount - base > Self.comparedKeys + 1 else { return true }
        var objectKeys = UnsafeMutableBufferPointer(start: keys + base, count: keyCount - base)
        objectKeys.sort { $0.fingerprint < $1.fingerprint }
        var start = 0
        while start < objectKeys.count {
            var end = start + 1
            while end < objectKeys.count, objectKeys[end].fingerprint == objectKeys[start].fingerprint { end += 1 }
            // Keys of one fingerprint: almost always one.
            for first in start..<end {
                for second in first + 1..<end where Self.same(bytes, objectKeys[first], objectKeys[second]) { return false }
            }
            start = end
        }
        return true
    }

    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Key, _ b: Key) -> Bool {
        a.count == b.count && memcmp(bytes.baseAddress! + a.start, bytes.baseAddress! + b.start, a.count) == 0
    }

    /// The key's length mixed with its first and last eight bytes (fewer when shorter).
    @inline(__always)
    private static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        var head: UInt64 = 0, tail: UInt64 = 0
        if range.count >= 8 {
            head = raw.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: range.upperBound - 8, as: UInt64.self)
        } else {
            for offset in range { head = head << 8 | UInt64(bytes[offset]) }
        }
        return (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(range.count)
    }

    @inline(__always)
    private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        while index < bytes.count {
            let byte = bytes[index]
            guard byte <= 0x20 else { return index }  // any token
            switch byte {
            case 0x20, 0x0A:
                // A line break and its indentation: the spaces of eight bytes at once.
                index += byte == 0x0A ? 1 : 0
                while index + 8 <= bytes.count {
                    let others = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0x2020_2020_2020_2020
                    guard others == 0 else {
                        index += others.trailingZeroBitCount / 8
                        break
                    }
                    index += 8
                }
                if index + 8 > bytes.count, index < bytes.count, bytes[index] == 0x20 { index += 1 }
            case 0x0D, 0x09: index += 1
            default: return index
            }
        }
        return index
    }

    /// The index after the closing quote of the string whose opening quote is at `start`;
    /// nil when it is not a string the parser accepts, or has a `\u` or `\/` escape.
    @inline(__always)
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        let skipped = StringScan.skipOrdinary(bytes, from: start + 1)
        var index = skipped.index
        var nonASCII = skipped.sawNonASCII
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if nonASCII, !ByteCursor.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[start + 1..<index])) { return nil }
                return index + 1
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                default: return nil
                }
            case ..<0x20: return nil
            default:
                if byte >= 0x80 { nonASCII = true }
                index += 1
            }
        }
        return nil
    }

    @inline(__always)
    private static func literal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ text: StaticString) -> Bool {
        bytes.count - start >= text.utf8CodeUnitCount && memcmp(bytes.baseAddress! + start, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    /// The index after the number at `start`, in the parser's grammar; nil when there is none.
    private static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        var index = start
        func at(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func digits() { while index < bytes.count, isDigit(bytes[index]) { index += 1 } }
        if at(index) == UInt8(ascii: "-") { index += 1 }
        guard isDigit(at(index)) else { return nil }
        if at(index) == 0x30 { index += 1 } else { digits() }
        if at(index) == UInt8(ascii: ".") {
            index += 1
            guard isDigit(at(index)) else { return nil }
            digits()
        }
        if at(index) | 0x20 == UInt8(ascii: "e") {
            index += 1
            if at(index) == UInt8(ascii: "+") || at(index) == UInt8(ascii: "-") { index += 1 }
            guard isDigit(at(index)) else { return nil }
            digits()
        }
        return index
    }
}
