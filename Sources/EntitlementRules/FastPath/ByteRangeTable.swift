import Glibc

/// Numbers the distinct byte strings of one buffer (ids, products, stores), 0, 1, 2, … in
/// order of first appearance, so that the flat engine compares and groups by integers.
///
/// Open addressing over the byte ranges themselves: no `String` and no allocation per entry.
/// Equal bytes are one entry; the callers use it only for ASCII, where byte equality is
/// `String` equality. A `tag` keeps equal bytes apart (a transaction id in two stores).
struct ByteRangeTable {
    /// The first range seen of each number, its tag and its hash's low half (16 bytes an entry:
    /// a table of 10,000 ids is then 40 pages to touch, not 70).
    private var spans: [ByteSpan] = []
    private var tags: [Int32] = []
    private var hashes: [UInt32] = []
    /// Number + 1 per slot; 0 is an empty slot.
    private var slots: [Int32]
    private var mask: Int

    init(expected: Int) {
        var capacity = 16
        while capacity < 2 * expected { capacity *= 2 }
        slots = Array(repeating: 0, count: capacity)
        mask = capacity - 1
        spans.reserveCapacity(expected)
        tags.reserveCapacity(expected)
        hashes.reserveCapacity(expected)
    }

    var count: Int { spans.count }

    /// The range of `number`'s first appearance.
    func range(of number: Int) -> Range<Int> { spans[number].present }

    /// The number of `bytes[range]` with `tag`, given the next free one when it is new.
    mutating func number(_ range: Range<Int>, tag: Int32 = 0, in bytes: UnsafeBufferPointer<UInt8>) -> (number: Int32, isNew: Bool) {
        let key = UnsafeBufferPointer(rebasing: bytes[range])
        let hash = Self.hash(key, tag: tag)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let number = Int(slots[slot] - 1)
            if hashes[number] == UInt32(truncatingIfNeeded: hash), tags[number] == tag,
               Self.same(key, UnsafeBufferPointer(rebasing: bytes[spans[number].present])) {
                return (Int32(number), false)
            }
            slot = (slot + 1) & mask
        }
        let number = Int32(spans.count)
        spans.append(ByteSpan(range))
        tags.append(tag)
        hashes.append(UInt32(truncatingIfNeeded: hash))
        slots[slot] = number + 1
        if spans.count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// The number of `key` (bytes from anywhere) with `tag`, if `number` gave it one.
    func find(_ key: UnsafeBufferPointer<UInt8>, tag: Int32 = 0, in bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(key, tag: tag)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let number = Int(slots[slot] - 1)
            if hashes[number] == UInt32(truncatingIfNeeded: hash), tags[number] == tag,
               Self.same(key, UnsafeBufferPointer(rebasing: bytes[spans[number].present])) {
                return Int32(number)
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        for number in hashes.indices {
            // The slot bits are the hash's low ones, which `hashes` keeps (the table stays under 2^32 slots).
            var slot = Int(hashes[number]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number + 1)
        }
    }

    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Eight bytes at a time, each word multiplied in and folded (not for adversaries: a
    /// collision costs a comparison, never a wrong answer).
    static func hash(_ key: UnsafeBufferPointer<UInt8>, tag: Int32) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(truncatingIfNeeded: key.count) &* multiplier ^ UInt64(UInt32(bitPattern: tag))
        guard let base = UnsafeRawPointer(key.baseAddress) else { return hash &* multiplier }
        var offset = 0
        while offset + 8 <= key.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 32
            offset += 8
        }
        if offset < key.count {
            var word: UInt64 = 0
            for index in offset..<key.count { word = word << 8 | UInt64(key[index]) }
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 32
        }
        return hash &* multiplier ^ (hash >> 29)
    }
}
