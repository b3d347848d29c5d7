import Glibc
import EntitlementBasics
import EntitlementModel

/// What the folders of `profiles/` look like from their metadata alone: enough to tell
/// that no profile file was added, removed or renamed since a completion cache was built.
///
/// Adding, removing or renaming a file changes its folder's modification and change times
/// (and a replaced folder has a new inode), so the signature covers every folder that holds
/// profile files: `profiles/` in the flat layout; in the fanout layout also each `XX/` and
/// each `XX/YY/` (one `stat` per folder, about 65,000 on a large store). The change time
/// cannot be set by `touch`, which is why it is part of it.
///
/// Timestamps have a coarse grain (a clock tick on Linux), so a change made in the same
/// tick as the previous one can leave them unchanged: `newest` is the latest of those
/// times, and a cache is only saved once it is older than `CompletionCache.settleSeconds`.
struct ProfilesSignature: Equatable {
    /// SHA-256 over each folder's device, inode, mtime and ctime, in hex.
    var digest: String
    /// The newest modification or change time of any folder, in seconds since 1970.
    var newest: Double

    /// The signature of the folders `layout` puts profile files in; nil when `profiles/` is missing or unreadable.
    init?(profilesPath: String, layout: ProfileLayout, fileSystem: FileSystem = .system) {
        var hashed = SignatureInput()
        guard let top = try? fileSystem.status(profilesPath), top.st_mode & S_IFMT == S_IFDIR else { return nil }
        hashed.add(name: [], FolderStamp(top))
        // Folders are visited in directory order, not sorted: an unchanged folder lists in the
        // same order, and a different order only makes the signature differ (a rebuild, never a stale answer).
        if layout == .fanout {
            var firsts: [(name: [UInt8], stamp: FolderStamp)] = []
            guard Self.forEachSubdirectory(of: profilesPath, fileSystem, { firsts.append(($0, $1)); return true }) else { return nil }
            // The 65,536 second-level folders are stat'ed on every core, one digest per first-level folder.
            let parts = Parallel.map(firsts.map(\.name), threshold: 16) { first -> (digest: String, newest: Double)? in
                var part = SignatureInput()
                let inner = profilesPath + "/" + String(decoding: first, as: UTF8.self)
                guard Self.forEachSubdirectory(of: inner, fileSystem, { part.add(name: $0, $1); return true }) else { return nil }
                return (SHA256.hexDigest(part.bytes), part.newest)
            }
            for (first, part) in zip(firsts, parts) {
                guard let part else { return nil }
                hashed.add(name: first.name, first.stamp)
                hashed.bytes += part.digest.utf8
                hashed.newest = max(hashed.newest, part.newest)
            }
        }
        digest = SHA256.hexDigest(hashed.bytes)
        newest = hashed.newest
    }

    /// Calls `body` with the name and `lstat` of each non-dot folder in the folder `path`
    /// (one `FileSystem.walk`, each folder `lstat`ed relative to the open parent); false when it
    /// cannot be listed, a folder cannot be `lstat`ed, or `body` returned false.
    private static func forEachSubdirectory(of path: String, _ fileSystem: FileSystem, _ body: ([UInt8], FolderStamp) -> Bool) -> Bool {
        var complete = true
        let walked = try? fileSystem.walk(path, detail: .directoryStatus) { entry in
            guard !entry.isHidden, entry.kind == .directory || entry.kind == .unknown else { return true }
            guard let status = entry.status else { complete = false; return false }
            return body(Array(entry.name), FolderStamp(status))
        }
        return walked == true && complete
    }
}

/// What a signature keeps of one folder's `stat`.
private struct FolderStamp: Sendable {
    var fields: (UInt64, UInt64, Int64, Int64, Int64, Int64)

    init(_ status: stat) {
        fields = (UInt64(status.st_dev), UInt64(status.st_ino),
                  Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec),
                  Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec))
    }

    /// The later of the modification and change times, in seconds since 1970.
    var newest: Double { max(Double(fields.2) + Double(fields.3) / 1e9, Double(fields.4) + Double(fields.5) / 1e9) }
}

/// The bytes a signature hashes: per folder its name, device, inode, mtime and ctime.
private struct SignatureInput {
    var bytes: [UInt8] = []
    var newest = 0.0

    mutating func add(name: [UInt8], _ stamp: FolderStamp) {
        bytes += name
        bytes.append(0)
        withUnsafeBytes(of: stamp.fields) { bytes += $0 }
        newest = max(newest, stamp.newest)
    }
}
