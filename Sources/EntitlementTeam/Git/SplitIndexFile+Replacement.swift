extension SplitIndexFile {
    /// The `link` extension's two bitmaps: the shared entries the small file deletes, and those
    /// it replaces (one nameless entry of `replaced` each, in order). Empty when the link names
    /// the shared index only; nil when they cannot be read.
    var bitmaps: (deleted: [Int], replaced: [Int])? {
        guard link.count >= 20 else { return nil }
        guard link.count > 20 else { return ([], []) }
        guard let deleted = EWAHBitmap.decode(link, at: 20), let replaced = EWAHBitmap.decode(link, at: 20 + deleted.length),
              20 + deleted.length + replaced.length == link.count else { return nil }
        return (deleted.positions, replaced.positions)
    }

    /// The shared index's id, as hex.
    var sharedIndexID: String? { link.count >= 20 ? SHA1.hex(Array(link[0..<20])) : nil }

    /// Puts each of `entries` (a name and its raw entry) in the file as git itself would: one
    /// whose name `sharedPositions` finds in the shared index (at a position the small file does
    /// not delete) replaces that shared entry, as a nameless entry in the position's place among
    /// `replaced` with its bit set in the replace bitmap; any other is a named entry. Named
    /// entries already in the file that name a shared entry (written so by earlier versions)
    /// are turned into replacements too. False, with nothing changed, when the bitmaps cannot
    /// be read.
    mutating func place(_ entries: [(name: [UInt8], raw: [UInt8])], sharedPositions: [[UInt8]: Int]) -> Bool {
        guard let bitmaps, bitmaps.replaced.count == replaced.count else { return false }
        let deleted = Set(bitmaps.deleted)
        var byPosition = Dictionary(uniqueKeysWithValues: zip(bitmaps.replaced, replaced))
        var replacing: Set<[UInt8]> = []
        for (name, raw) in named + entries {
            if let position = sharedPositions[name], !deleted.contains(position) {
                byPosition[position] = Self.nameless(raw)
                replacing.insert(name)
            } else {
                set(name, raw: raw)
            }
        }
        named.removeAll { replacing.contains($0.name) }
        guard !replacing.isEmpty else { return true }
        let positions = byPosition.keys.sorted()
        replaced = positions.compactMap { byPosition[$0] }
        link = Array(link[0..<20]) + EWAHBitmap.encode(bitmaps.deleted) + EWAHBitmap.encode(positions)
        return true
    }

    /// `raw` without its name: the stat data, mode and object id, the flags with a name
    /// length of 0, and the padding of an entry of no name. Git takes the name from the
    /// shared entry it replaces.
    static func nameless(_ raw: [UInt8]) -> [UInt8] {
        var entry = Array(raw[0..<60])
        entry += [raw[60] & 0xF0, 0]
        entry += [UInt8](repeating: 0, count: entrySize(nameLength: 0) - entry.count)
        return entry
    }
}
