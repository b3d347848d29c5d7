import Glibc
import EntitlementBasics
import EntitlementModel
import EntitlementStore

/// Where paths sit in a split index's shared index (`.git/sharedindex.<id>`), without reading it whole.
///
/// The small file must name a changed shared entry by its position: an entry that replaces it
/// by position is the only shape git reads safely. Git reads a small-file entry that merely
/// has the same name as a shared one by putting it into the shared index's array in place of
/// the shared entry, while its memory belongs to the small file's; a command that then
/// replaces the index (`reset --hard`, `checkout`, `merge`) frees that memory and reads it
/// again, and git 2.39 crashed so after a sync or bulk grant of a thousand profiles
/// (`SplitIndexReplacementTests`).
///
/// A shared index never changes (its name is its hash), so the positions of one entry in every
/// `stride` are kept beside it in `.git/entitlement/shared-positions`, made by one read of
/// the shared index the first time they are needed (about a second at 1M profiles, once per
/// shared index; `sync` makes them right after git writes a new one). A lookup then reads that
/// file and, per path, the `stride` entries after the last kept name not past it.
struct SharedIndexPositions {
    /// One entry in this many is kept.
    static let stride = 256

    private let table: [UInt8]
    private let count: Int
    private let sharedPath: String
    /// The shared index's entry count and size.
    private let entries: Int
    private let size: Int

    /// The kept positions of the shared index `id`, made when missing, stale or damaged; nil
    /// when the shared index is not one read here (version 4, unreadable).
    init?(sharedIndex id: String, in repository: GitRepository) throws(EntitlementError) {
        sharedPath = "\(repository.gitDirectory)/sharedindex.\(id)"
        let keptPath = "\(repository.gitDirectory)/entitlement/shared-positions"
        guard let status = try GitFiles.system.status(sharedPath) else { return nil }
        size = Int(status.st_size)
        entries = SplitIndexFile.entryCount(ofIndexAt: sharedPath)
        let header = Array("entitlement shared-positions 1 \(id) \(size) \(Self.stride)\n".utf8)
        if let kept = try GitFiles.read(keptPath), kept.starts(with: header), Self.isWhole(Array(kept[header.count...]), fileSize: size) {
            table = Array(kept[header.count...])
        } else {
            guard entries > 0, let shared = try GitFiles.read(sharedPath), let made = Self.makeTable(shared) else { return nil }
            try GitFiles.makeDirectory(PathName.directory(of: keptPath))
            try GitFiles.writeAtomically(header + made, to: keptPath, durable: false)
            table = made
        }
        count = Int(SplitIndexFile.be32(table, 0))
        guard entries > 0, count == (entries + Self.stride - 1) / Self.stride else { return nil }
    }

    /// True when every offset in `table` is in order and in range (a damaged file is made again).
    static func isWhole(_ table: [UInt8], fileSize: Int) -> Bool {
        guard table.count >= 4 else { return false }
        let count = Int(SplitIndexFile.be32(table, 0))
        guard count > 0, table.count >= 4 + count * 12 else { return false }
        var lastOffset = 11, lastName = 4 + count * 12
        for index in 0..<count {
            let offset = Int(SplitIndexFile.be32(table, 4 + index * 12)) << 32 | Int(SplitIndexFile.be32(table, 8 + index * 12))
            let name = Int(SplitIndexFile.be32(table, 12 + index * 12))
            guard offset > lastOffset, offset < fileSize, name >= lastName, name < table.count else { return false }
            lastOffset = offset
            lastName = name
        }
        return table.last == 0
    }

    /// Makes the kept positions of the shared index the small file names, if not made yet.
    static func prepare(in repository: GitRepository) throws(EntitlementError) {
        guard let bytes = try GitFiles.read("\(repository.gitDirectory)/index"), bytes.count <= SplitIndexUpdate.Limits.standard.splitFileRead,
              let id = SplitIndexFile(bytes)?.sharedIndexID else { return }
        _ = try SharedIndexPositions(sharedIndex: id, in: repository)
    }

    /// The table of a shared index: the count of kept entries, then for each its offset in the
    /// file (8 bytes) and the offset of its name in the table (4 bytes), then the names.
    static func makeTable(_ shared: [UInt8]) -> [UInt8]? {
        guard shared.count >= 32, shared[0..<4].elementsEqual("DIRC".utf8) else { return nil }
        let version = SplitIndexFile.be32(shared, 4)
        guard version == 2 || version == 3 else { return nil }
        let entries = Int(SplitIndexFile.be32(shared, 8))
        var offsets: [Int] = [], names: [[UInt8]] = []
        var offset = 12
        for index in 0..<entries {
            guard let entry = Self.entry(in: shared, at: offset) else { return nil }
            if index % stride == 0 {
                offsets.append(offset)
                names.append(Array(shared[entry.name]))
            }
            offset = entry.end
        }
        var table: [UInt8] = []
        SplitIndexFile.append32(UInt32(offsets.count), to: &table)
        var nameOffset = 4 + offsets.count * 12
        for (offset, name) in zip(offsets, names) {
            SplitIndexFile.append32(UInt32(truncatingIfNeeded: offset >> 32), to: &table)
            SplitIndexFile.append32(UInt32(truncatingIfNeeded: offset), to: &table)
            SplitIndexFile.append32(UInt32(nameOffset), to: &table)
            nameOffset += name.count + 1
        }
        for name in names { table += name + [0] }
        return table
    }

    /// The name's bytes and the end of the version 2 or 3 entry at `offset`; nil when cut short.
    static func entry(in bytes: [UInt8], at offset: Int) -> (name: Range<Int>, end: Int)? {
        guard offset + SplitIndexFile.entryHeader <= bytes.count else { return nil }
        let flags = Int(bytes[offset + 60]) << 8 | Int(bytes[offset + 61])
        let nameStart = offset + SplitIndexFile.entryHeader + (flags & 0x4000 != 0 ? 2 : 0)
        var length = flags & 0xFFF
        if length == 0xFFF {
            guard let end = bytes[nameStart...].firstIndex(of: 0) else { return nil }
            length = end - nameStart
        }
        let end = offset + ((nameStart - offset + length + 8) & ~7)
        guard end <= bytes.count else { return nil }
        return (nameStart..<(nameStart + length), end)
    }

    /// The position of each of `names` found in the shared index (absent when not there);
    /// nil when a lookup cannot tell (a part of the shared index that does not parse).
    func positions(of names: [[UInt8]]) throws(EntitlementError) -> [[UInt8]: Int]? {
        var found: [[UInt8]: Int] = [:]
        guard !names.isEmpty else { return found }
        let fd: Int32
        do { fd = try systemCall("open") { GitFiles.system.open(sharedPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) } } catch {
            throw .io(path: sharedPath, message: "cannot read: \(error.message)")
        }
        defer { GitFiles.system.closeQuietly(fd) }
        for name in names {
            // The last kept entry whose name is not past `name`.
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                if name.lexicographicallyPrecedes(keptName(middle)) { high = middle } else { low = middle + 1 }
            }
            guard low > 0 else { continue }  // before the first entry
            let sample = low - 1
            let window = try read(fd, from: keptOffset(sample), to: sample + 1 < count ? keptOffset(sample + 1) : size)
            let inWindow = min(Self.stride, entries - sample * Self.stride)
            // Every entry up to the first name past `name` must parse: only then is it not there.
            var offset = 0
            for index in 0..<inWindow {
                guard let entry = Self.entry(in: window, at: offset) else { return nil }
                let entryName = window[entry.name]
                if entryName.elementsEqual(name) { found[name] = sample * Self.stride + index }
                if !entryName.lexicographicallyPrecedes(name) { break }
                offset = entry.end
            }
        }
        return found
    }

    private func keptOffset(_ index: Int) -> Int {
        Int(SplitIndexFile.be32(table, 4 + index * 12)) << 32 | Int(SplitIndexFile.be32(table, 8 + index * 12))
    }

    private func keptName(_ index: Int) -> ArraySlice<UInt8> {
        let start = Int(SplitIndexFile.be32(table, 12 + index * 12))
        let end = index + 1 < count ? Int(SplitIndexFile.be32(table, 12 + (index + 1) * 12)) - 1 : table.count - 1
        return table[start..<max(start, end)]
    }

    /// The shared index's bytes from `start` to `end`.
    private func read(_ fd: Int32, from start: Int, to end: Int) throws(EntitlementError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, end - start))
        var done = 0
        do throws(SystemError) {
            while done < bytes.count {
                let offset = done
                let got = try systemCall("pread") { bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, $0.count - offset, off_t(start + offset)) } }
                guard got > 0 else { break }
                done += got
            }
        } catch {
            throw .io(path: sharedPath, message: "cannot read: \(error.message)")
        }
        bytes.removeLast(bytes.count - done)
        return bytes
    }
}
