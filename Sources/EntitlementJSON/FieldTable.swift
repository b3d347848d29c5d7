/// The fields a model reads, so that an object's values are found in one pass over it.
///
/// A transaction has about twenty fields; looking each one up in the object scans the
/// object each time. `values(in:)` walks the object once and puts every known field's
/// value in its slot; a later lookup by name only searches the few known keys of the
/// same byte length. Keys compare as bytes (`JSONKey`).
@usableFromInline
package struct FieldTable: Sendable {
    package let keys: [String]
    /// Slots of the keys of each byte length (index: the length).
    @usableFromInline let byLength: [[Int]]
    /// Each key's bytes, zero-padded into four words: two keys of the same length are
    /// the same bytes exactly when their words are equal.
    @usableFromInline let packed: [Packed]

    @usableFromInline
    struct Packed: Equatable, Sendable {
        @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        @usableFromInline static let capacity = 32

        /// The bytes packed, or nil when they are longer than any key a table can hold.
        @inlinable
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= Self.capacity else { return nil }
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        }

        @inlinable
        static func == (lhs: Packed, rhs: Packed) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
        }
    }

    /// `keys` are at most 32 bytes long each (the model's own field names).
    package init(_ keys: [String]) {
        precondition(keys.allSatisfy { $0.utf8.count <= Packed.capacity }, "field names are at most 32 bytes")
        self.keys = keys
        var byLength = [[Int]](repeating: [], count: (keys.map { $0.utf8.count }.max() ?? 0) + 1)
        for (slot, key) in keys.enumerated() { byLength[key.utf8.count].append(slot) }
        self.byLength = byLength
        packed = keys.map { key in Array(key.utf8).withUnsafeBufferPointer { Packed($0)! } }
    }

    /// The slot of `key`, or nil when it is not one of the table's keys.
    package func slot(_ key: String) -> Int? {
        let found = key.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.count < byLength.count, let wanted = Packed(bytes) else { return nil }
            for slot in byLength[bytes.count] where packed[slot] == wanted { return slot }
            return nil
        }
        if let found { return found }
        return keys.firstIndex { JSONKey.equal($0, key) }
    }

    /// The slot of the key whose UTF-8 bytes are `bytes`, or nil (the byte decoder's lookup).
    @inlinable @inline(__always)
    package func slot(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count < byLength.count, let wanted = Packed(bytes) else { return nil }
        return byLength.withUnsafeBufferPointer { byLength in
            packed.withUnsafeBufferPointer { packed in
                for slot in byLength[bytes.count] where packed[slot] == wanted { return slot }
                return nil
            }
        }
    }

    /// The value of each key in `object`, by slot (nil when absent); other keys are skipped.
    package func values(in object: JSONObject) -> [JSONValue?] {
        var values = [JSONValue?](repeating: nil, count: keys.count)
        object.entries.withUnsafeBufferPointer { entries in
            for entry in entries {
                if let slot = slot(entry.key) { values[slot] = entry.value }
            }
        }
        return values
    }
}
