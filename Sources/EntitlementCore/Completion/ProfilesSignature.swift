#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    init?(profilesPath: String, layout: ProfileLayout) {
        var bytes: [UInt8] = []
        var newest = 0.0
        func add(_ path: String, _ name: String) -> Bool {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return false }
            bytes += name.utf8
            bytes.append(0)
            for field in [UInt64(status.st_dev), UInt64(status.st_ino),
                          UInt64(bitPattern: Int64(status.st_mtim.tv_sec)), UInt64(status.st_mtim.tv_nsec),
                          UInt64(bitPattern: Int64(status.st_ctim.tv_sec)), UInt64(status.st_ctim.tv_nsec)] {
                withUnsafeBytes(of: field.littleEndian) { bytes += $0 }
            }
            for time in [status.st_mtim, status.st_ctim] {
                newest = max(newest, Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
            }
            return true
        }
        guard add(profilesPath, "") else { return nil }
        if layout == .fanout {
            let listing = ProfileNameListing(profilesPath: profilesPath, layout: layout)
            guard let firsts = try? listing.subdirectories(of: profilesPath) else { return nil }
            for first in firsts {
                guard add("\(profilesPath)/\(first)", first),
                      let seconds = try? listing.subdirectories(of: "\(profilesPath)/\(first)") else { return nil }
                for second in seconds where !add("\(profilesPath)/\(first)/\(second)", "\(first)/\(second)") { return nil }
            }
        }
        digest = SHA256.hexDigest(bytes)
        self.newest = newest
    }
}
