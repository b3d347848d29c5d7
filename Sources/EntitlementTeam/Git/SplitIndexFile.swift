import Glibc
import EntitlementStore

/// The small half of git's split index (`core.splitIndex`): `.git/index` holding only the
/// entries changed since the shared index `.git/sharedindex.<id>` was written, the `link`
/// extension that names it, and the whole index's cache tree (`TREE`).
///
/// Git's index format (git's Documentation/gitformat-index): a `DIRC` header, the entries
/// (version 2 or 3, each padded to 8 bytes), extensions, and the SHA-1 of everything before
/// it. The tool parses and rewrites only this file, so bringing two entries up to date costs
/// what the file holds, never the store's size. Entries naming a path replace the shared
/// entry of that path when git reads the index; `replaced` (nameless entries the link's
/// bitmaps place) and the link extension are kept byte for byte.
struct SplitIndexFile: Equatable {
    var version: UInt32
    /// The nameless entries that replace shared ones by position, in order, raw.
    var replaced: [[UInt8]]
    /// Entries with a name (path bytes, raw entry), sorted by name.
    var named: [(name: [UInt8], raw: [UInt8])]
    /// The `link` extension's payload (shared index id and bitmaps).
    var link: [UInt8]
    /// The `TREE` extension's payload, when present.
    var tree: [UInt8]?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.version == rhs.version && lhs.replaced == rhs.replaced && lhs.link == rhs.link && lhs.tree == rhs.tree
            && lhs.named.map(\.name) == rhs.named.map(\.name) && lhs.named.map(\.raw) == rhs.named.map(\.raw)
    }

    /// Fixed bytes of an entry before its name (stat data, mode, object id, flags).
    static let entryHeader = 62

    /// Parses a split `.git/index`; nil for anything the tool does not rewrite itself (no
    /// `link`, version 4, a merge's conflict stages, extended flags, a required extension it
    /// does not know, a bad checksum): git's own `update-index` handles those.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 32, bytes[0..<4].elementsEqual("DIRC".utf8) else { return nil }
        version = Self.be32(bytes, 4)
        guard version == 2 || version == 3 else { return nil }
        guard SHA1.digest(Array(bytes[0..<(bytes.count - 20)])).elementsEqual(bytes[(bytes.count - 20)...]) else { return nil }
        let count = Int(Self.be32(bytes, 8))
        var offset = 12
        replaced = []
        named = []
        for _ in 0..<count {
            guard offset + Self.entryHeader <= bytes.count - 20 else { return nil }
            let flags = Int(bytes[offset + 60]) << 8 | Int(bytes[offset + 61])
            // Extended flags (intent-to-add, skip-worktree) and conflict stages: left to git.
            guard flags & 0x4000 == 0, flags & 0x3000 == 0 else { return nil }
            let nameStart = offset + Self.entryHeader
            var length = flags & 0xFFF
            if length == 0xFFF {
                guard let end = bytes[nameStart...].firstIndex(of: 0) else { return nil }
                length = end - nameStart
            }
            let size = Self.entrySize(nameLength: length)
            guard offset + size <= bytes.count - 20 else { return nil }
            let raw = Array(bytes[offset..<(offset + size)])
            if length == 0 {
                guard named.isEmpty else { return nil }
                replaced.append(raw)
            } else {
                named.append((Array(bytes[nameStart..<(nameStart + length)]), raw))
            }
            offset += size
        }
        var link: [UInt8]?
        tree = nil
        while offset + 8 <= bytes.count - 20 {
            let signature = Array(bytes[offset..<(offset + 4)]), size = Int(Self.be32(bytes, offset + 4))
            let start = offset + 8
            guard start + size <= bytes.count - 20 else { return nil }
            let payload = Array(bytes[start..<(start + size)])
            switch String(decoding: signature, as: UTF8.self) {
            case "link": link = payload
            case "TREE": tree = payload
            default:
                // Upper-case extensions are optional caches (resolve-undo, untracked cache,
                // fsmonitor, entry offsets): dropped, git rebuilds what it needs. Others are required.
                guard (0x41...0x5A).contains(signature[0]) else { return nil }
            }
            offset = start + size
        }
        guard offset == bytes.count - 20, let link else { return nil }
        self.link = link
    }

    /// The file's bytes, checksum included.
    var bytes: [UInt8] {
        var out = Array("DIRC".utf8)
        Self.append32(version, to: &out)
        Self.append32(UInt32(replaced.count + named.count), to: &out)
        for entry in replaced { out += entry }
        for entry in named { out += entry.raw }
        out += Array("link".utf8)
        Self.append32(UInt32(link.count), to: &out)
        out += link
        if let tree {
            out += Array("TREE".utf8)
            Self.append32(UInt32(tree.count), to: &out)
            out += tree
        }
        out += SHA1.digest(out)
        return out
    }

    /// Puts `entry` (a raw entry naming `name`) in place of the entry of the same name, or
    /// adds it in order.
    mutating func set(_ name: [UInt8], raw: [UInt8]) {
        var low = 0, high = named.count
        while low < high {
            let middle = (low + high) / 2
            if named[middle].name.lexicographicallyPrecedes(name) { low = middle + 1 } else { high = middle }
        }
        if low < named.count, named[low].name == name { named[low].raw = raw } else { named.insert((name, raw), at: low) }
    }

    /// The entry count in the header of the index file at `path` (the whole index, a split
    /// file or a shared index): 12 bytes read. 0 when the file is missing or not an index.
    static func entryCount(ofIndexAt path: String) -> Int {
        guard let header = GitFiles.system.readPrefix(path, count: 12), header.count == 12,
              header[0..<4].elementsEqual("DIRC".utf8) else { return 0 }
        return Int(be32(header, 8))
    }

    /// An entry's size on disk: header, name, and 1 to 8 NUL bytes up to a multiple of 8.
    static func entrySize(nameLength: Int) -> Int { (entryHeader + nameLength + 8) & ~7 }

    static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func append32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
