import Glibc
import EntitlementModel

/// Fills in the stat data of a freshly read tree's index with what the bulk load saw when it
/// read each file, so git trusts the entries without reading the files again.
///
/// `git read-tree` writes every entry with empty stat data; `git update-index --refresh` then
/// finds each entry changed by stat and hashes the file again to learn it is not. At 1M
/// profiles that is a second read of 4 GB, evicted from the cache by then, one file at a
/// time: it took longer than the load itself. The bulk load has already `stat`ed every file
/// just before reading what it committed, so the index can say so.
///
/// Only a whole, unsplit index of version 2 or 3 without extended flags is rewritten; any
/// other index is left as it is (and `--refresh` does the work). An entry is filled only when
/// its path was loaded and is a regular file; the rest keep empty stat data, which git
/// checks by content. The file gets the current time: git compares each entry's time with
/// the index's ("racy git"), so a file changed in the same clock tick as this write is still
/// checked by content.
struct IndexStatFill {
    /// The size of one file's stat data in an index entry: ctime, mtime (seconds and
    /// nanoseconds), dev, ino, mode, uid, gid, size; 32 bits each, big-endian.
    static let statSize = 40

    /// The loaded paths (as bytes, in git's order: by bytes).
    private(set) var paths: [[UInt8]] = []
    /// Each loaded path's stat data, `statSize` bytes each, as `update-index` records them.
    private(set) var stats: [UInt8] = []

    /// Notes that `path` was loaded with `status`; paths come in byte order.
    mutating func add(_ path: [UInt8], _ status: stat) {
        paths.append(path)
        Self.appendStatData(of: status, to: &stats)
    }

    /// An index entry's stat data for a file with `status`, as `update-index` records it.
    static func appendStatData(of status: stat, to out: inout [UInt8]) {
        let fields: [UInt32] = [
            UInt32(truncatingIfNeeded: status.st_ctim.tv_sec), UInt32(truncatingIfNeeded: status.st_ctim.tv_nsec),
            UInt32(truncatingIfNeeded: status.st_mtim.tv_sec), UInt32(truncatingIfNeeded: status.st_mtim.tv_nsec),
            UInt32(truncatingIfNeeded: status.st_dev), UInt32(truncatingIfNeeded: status.st_ino),
            status.st_mode & 0o100 != 0 ? 0o100755 : 0o100644,
            status.st_uid, status.st_gid, UInt32(truncatingIfNeeded: status.st_size),
        ]
        for field in fields { SplitIndexFile.append32(field, to: &out) }
    }

    /// `index` with the stat data of every loaded path filled in; nil when it is not an index
    /// this fills (see the type's comment).
    func filled(_ index: [UInt8]) -> [UInt8]? {
        guard index.count >= 32, index[0..<4].elementsEqual("DIRC".utf8) else { return nil }
        let version = SplitIndexFile.be32(index, 4)
        guard version == 2 || version == 3 else { return nil }
        var out = index
        out.removeLast(20)
        let count = Int(SplitIndexFile.be32(index, 8))
        var offset = 12, next = 0
        for _ in 0..<count {
            guard offset + SplitIndexFile.entryHeader <= out.count else { return nil }
            let flags = Int(out[offset + 60]) << 8 | Int(out[offset + 61])
            guard flags & 0x4000 == 0, flags & 0x3000 == 0 else { return nil }
            let nameStart = offset + SplitIndexFile.entryHeader
            var length = flags & 0xFFF
            if length == 0xFFF {
                guard let end = out[nameStart...].firstIndex(of: 0) else { return nil }
                length = end - nameStart
            }
            guard nameStart + length <= out.count else { return nil }
            let name = out[nameStart..<(nameStart + length)]
            // Both lists are in byte order: walk the loaded paths along with the entries.
            while next < paths.count, paths[next].lexicographicallyPrecedes(name) { next += 1 }
            let stat = next * Self.statSize
            // Same path, same mode (a regular file committed as loaded).
            if next < paths.count, paths[next].elementsEqual(name), out[(offset + 24)..<(offset + 28)].elementsEqual(stats[(stat + 24)..<(stat + 28)]) {
                out.replaceSubrange(offset..<(offset + Self.statSize), with: stats[stat..<(stat + Self.statSize)])
            }
            offset += SplitIndexFile.entrySize(nameLength: length)
        }
        // A split index's small file (`link`) is not the whole index: left to git.
        while offset + 8 <= out.count {
            if out[offset..<(offset + 4)].elementsEqual("link".utf8) { return nil }
            offset += 8 + Int(SplitIndexFile.be32(out, offset + 4))
        }
        out += SHA1.digest(out)
        return out
    }

    /// Rewrites `.git/index` of `repository` through `index.lock`; false when the index is
    /// not one this fills or the lock is taken.
    func apply(in repository: GitRepository) throws(EntitlementError) -> Bool {
        let indexPath = "\(repository.gitDirectory)/index"
        guard let bytes = try GitFiles.read(indexPath), let filled = filled(bytes) else { return false }
        return try SplitIndexUpdate.install(filled, in: repository, keepingTimesOf: nil)
    }
}
