import Glibc
import EntitlementJSON

extension ProfileDecoder {
    /// `checkUniqueIDs` over byte ranges, for ASCII stores and ids (then equal bytes are
    /// equal strings): few transactions compare pairwise, many go through a table of
    /// indices hashed from the id's bytes, with no `String` made or hashed.
    func checkUniqueIDRanges() throws(Unsupported) {
        let bytes = cursor.bytes
        // A space in a store name makes "store id" keys ambiguous: the string check decides.
        for key in idRanges where memchr(bytes.baseAddress! + key.store.lowerBound, 0x20, key.store.count) != nil { throw Unsupported() }
        if idRanges.count <= 16 {
            for (index, key) in idRanges.enumerated() {
                for earlier in idRanges[..<index] where ByteCursor.same(bytes, earlier.id, key.id) && ByteCursor.same(bytes, earlier.store, key.store) {
                    throw Unsupported()
                }
            }
            return
        }
        var capacity = 64
        while capacity < idRanges.count * 2 { capacity *= 2 }
        let mask = capacity - 1
        var table = [Int32](repeating: -1, count: capacity)
        try table.withUnsafeMutableBufferPointer { table throws(Unsupported) in
            for (index, key) in idRanges.enumerated() {
                var bucket = Self.hash(bytes, key.id) & mask
                while table[bucket] >= 0 {
                    let earlier = idRanges[Int(table[bucket])]
                    if ByteCursor.same(bytes, earlier.id, key.id) && ByteCursor.same(bytes, earlier.store, key.store) { throw Unsupported() }
                    bucket = (bucket + 1) & mask
                }
                table[bucket] = Int32(truncatingIfNeeded: index)
            }
        }
    }

    /// A hash of the bytes in `range`, eight at a time (not for security: a profile is the
    /// user's own file, and collisions only cost comparisons).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        let base = UnsafeRawPointer(bytes.baseAddress!) + range.lowerBound
        var hash: UInt64 = UInt64(truncatingIfNeeded: range.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= range.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            offset += 8
        }
        while offset < range.count {
            hash = (hash ^ UInt64(base.load(fromByteOffset: offset, as: UInt8.self))) &* 0x94D0_49BB_1331_11EB
            offset += 1
        }
        hash ^= hash >> 32
        return Int(truncatingIfNeeded: hash & 0x7FFF_FFFF_FFFF_FFFF)
    }
}
