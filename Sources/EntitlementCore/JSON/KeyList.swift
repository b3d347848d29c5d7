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
