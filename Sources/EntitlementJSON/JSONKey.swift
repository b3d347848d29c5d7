import Glibc

/// Object keys compare as raw UTF-8 bytes, everywhere: the parser's duplicate check,
/// `JSONObject` lookups and the writer's key order. So "café" in NFC and in NFD are two
/// different keys, as the JSON specification has them (docs/store-format.md, "Object keys").
package struct JSONKey: Hashable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package static func == (lhs: JSONKey, rhs: JSONKey) -> Bool { JSONKey.equal(lhs.text, rhs.text) }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte equality of two keys (length first: it settles most comparisons).
    ///
    /// `memcmp` over each string's own UTF-8 storage: the generic `elementsEqual` of two
    /// `UTF8View`s walks them index by index, and was a fifth of a batch check's instructions.
    @inline(__always)
    package static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && compare(lhs, rhs) == 0
    }

    /// Byte order of two keys: the order of the writer's sorted output.
    @inline(__always)
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`, byte by byte
    /// (a prefix sorts first).
    package static func compare(_ lhs: String, _ rhs: String) -> Int {
        let result = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in compare(left, right) }
        }
        if let result = result ?? nil { return result }
        // Not reached for native strings; kept for strings without contiguous UTF-8.
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }

    /// Byte order of two UTF-8 buffers; see `compare(_:_:)`.
    @inline(__always)
    package static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let order = memcmp(a, b, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }
}
