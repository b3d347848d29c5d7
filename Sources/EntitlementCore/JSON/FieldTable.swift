/// The fields a model reads, so that an object's values are found in one pass over it.
///
/// A transaction has about twenty fields; looking each one up in the object scans the
/// object each time. `values(in:)` walks the object once and puts every known field's
/// value in its slot; a later lookup by name only searches the few known keys of the
/// same byte length. Keys compare as bytes (`JSONKey`).
struct FieldTable: Sendable {
    let keys: [String]
    /// Slots of the keys of each byte length (index: the length).
    private let byLength: [[Int]]

    init(_ keys: [String]) {
        self.keys = keys
        var byLength = [[Int]](repeating: [], count: (keys.map(\.utf8.count).max() ?? 0) + 1)
        for (slot, key) in keys.enumerated() { byLength[key.utf8.count].append(slot) }
        self.byLength = byLength
    }

    /// The slot of `key`, or nil when it is not one of the table's keys.
    func slot(_ key: String) -> Int? {
        let length = key.utf8.count
        guard length < byLength.count else { return nil }
        for slot in byLength[length] where JSONKey.equal(keys[slot], key) { return slot }
        return nil
    }

    /// The value of each key in `object`, by slot (nil when absent); other keys are skipped.
    func values(in object: JSONObject) -> [JSONValue?] {
        var values = [JSONValue?](repeating: nil, count: keys.count)
        object.entries.withUnsafeBufferPointer { entries in
            for entry in entries {
                if let slot = slot(entry.key) { values[slot] = entry.value }
            }
        }
        return values
    }
}
