/// A git tree object: the entries of one directory, read and written in git's binary form.
struct GitTree: Equatable {
    struct Entry: Equatable {
        /// `100644` for a file, `40000` for a directory.
        var mode: String
        var name: String
        /// 40 hex digits.
        var id: String

        var isDirectory: Bool { mode == "40000" }
    }

    static let fileMode = "100644"
    static let directoryMode = "40000"

    var entries: [String: Entry] = [:]

    init() {}

    /// Parses the content of a tree object (`mode SP name NUL 20-byte-id`, repeated).
    init?(content: [UInt8]) {
        var index = 0
        while index < content.count {
            guard let space = content[index...].firstIndex(of: 0x20), let nul = content[space...].firstIndex(of: 0), nul + 20 < content.count + 1 else { return nil }
            let mode = String(decoding: content[index..<space], as: UTF8.self)
            let name = String(decoding: content[(space + 1)..<nul], as: UTF8.self)
            guard nul + 21 <= content.count else { return nil }
            entries[name] = Entry(mode: mode, name: name, id: SHA1.hex(Array(content[(nul + 1)..<(nul + 21)])))
            index = nul + 21
        }
    }

    /// The object content, entries in git's order (a directory sorts as if its name ended in `/`).
    var content: [UInt8] {
        // Each key made once, not twice per comparison: a folder of 2,000 entries is sorted on
        // every commit that changes one of them.
        let sorted = entries.values.map { (key: Self.sortKey($0), entry: $0) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        var out: [UInt8] = []
        for (_, entry) in sorted {
            out.append(contentsOf: entry.mode.utf8)
            out.append(0x20)
            out.append(contentsOf: entry.name.utf8)
            out.append(0)
            out.append(contentsOf: Self.bytes(hex: entry.id))
        }
        return out
    }

    var id: String { SHA1.objectID(type: "tree", content: content) }

    private static func sortKey(_ entry: Entry) -> [UInt8] {
        Array(entry.name.utf8) + (entry.isDirectory ? [UInt8(ascii: "/")] : [])
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        for char in hex.utf8 {
            let value: UInt8 = char <= UInt8(ascii: "9") ? char - UInt8(ascii: "0") : (char | 0x20) - UInt8(ascii: "a") + 10
            if let h = high { out.append(h << 4 | value); high = nil } else { high = value }
        }
        return out
    }
}
