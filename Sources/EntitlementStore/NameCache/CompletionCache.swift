import Glibc
import EntitlementBasics
import EntitlementModel

/// A sorted copy of a store's profile file names, kept outside the store, so that
/// completing a customer id does not list a folder of a million files.
///
/// One file per store in `$XDG_CACHE_HOME/entitlement/` (else `~/.cache/entitlement/`),
/// named from the SHA-256 of the store's resolved path. It holds the `ProfilesSignature`
/// it was built under and is used only while the folders still have that signature;
/// otherwise the completion lists the folders, answers from that listing and saves a new
/// cache. A cache that cannot be read, created or trusted is ignored: completion then
/// lists the folders as it would without one. Nothing here reports an error, since it
/// runs inside the user's shell. See docs/performance.md, "Completing customer ids".
package struct CompletionCache {
    /// The folder the cache files live in.
    let directory: String
    /// The current time, to tell whether the folders' timestamps have settled.
    let now: Double
    /// The seam every system call of the cache goes through.
    let fileSystem: FileSystem

    /// A cache is saved only when every folder's timestamps are older than this many
    /// seconds: a change in the same clock tick as the last one may not move them.
    static let settleSeconds = 2.0
    static let magic = "entitlement-completion-cache 1"

    /// The cache folder the environment names: `$XDG_CACHE_HOME/entitlement` (when absolute),
    /// else `$HOME/.cache/entitlement`; nil when neither is set.
    package init?(environment: [String: String], now: Double, fileSystem: FileSystem = .system) {
        self.fileSystem = fileSystem
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            directory = "\(cache)/entitlement"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directory = "\(home)/.cache/entitlement"
        } else {
            return nil
        }
        self.now = now
    }

    /// Up to `limit` ids of `store` whose file names start with `namePrefix`, in name order;
    /// nil when the cache cannot serve (the caller then lists the folders itself).
    package func userIDs(in store: EntitlementStore, namePrefix: [UInt8], limit: Int) -> [String]? {
        let layout = store.layout
        guard let root = Self.resolvedPath(store.root), let folder = prepareDirectory(outside: root),
              let signature = ProfilesSignature(profilesPath: store.profilesPath, layout: layout, fileSystem: fileSystem) else { return nil }
        let path = "\(folder)/users-\(SHA256.hexDigest(root.utf8).prefix(32))"
        let header = "\(Self.magic)\n\(layout.rawValue) \(signature.digest)\n"
        if let answer = CacheFile.lookUp(path: path, header: header, namePrefix: namePrefix, limit: limit, fileSystem: fileSystem) { return answer }

        // Folders that changed within the last seconds may change again unseen: a copy could
        // not be saved, so the plain listing (which stops at `limit` matches) answers sooner.
        guard signature.newest < now - Self.settleSeconds else { return nil }
        // Rebuild: list, check that nothing moved meanwhile, answer from the listing, then save.
        var bytes: [UInt8] = []
        var ranges: [Range<Int32>] = []
        do {
            try ProfileNameListing(profilesPath: store.profilesPath, layout: layout, fileSystem: fileSystem).forEachName { name in
                guard bytes.count + name.count < Int32.max else { return false }
                let start = Int32(bytes.count)
                bytes += name
                ranges.append(start..<Int32(bytes.count))
                return true
            }
        } catch {
            return nil
        }
        guard bytes.count + ranges.count < Int32.max else { return nil }
        let body = SortedNameLines.build(bytes: bytes, ranges: ranges)
        let answer = body.withUnsafeBytes { SortedNameLines(body: $0).userIDs(withNamePrefix: namePrefix, limit: limit) }
        if ProfilesSignature(profilesPath: store.profilesPath, layout: layout, fileSystem: fileSystem) == signature {
            CacheFile.save(header: header, body: body, path: path, in: folder, now: now, fileSystem: fileSystem)
        }
        return answer
    }

    /// The cache folder, created (mode 0700) if missing; nil when it is not a folder of this
    /// user, writable by no one else, or when it would lie inside the store. The folders above
    /// it may be links (the user's choice); the cache folder itself may not.
    /// Each folder is checked before it is created, so nothing is ever created in the store.
    private func prepareDirectory(outside storeRoot: String) -> String? {
        guard let parent = resolvedCreating(PathName.directory(of: directory), outside: storeRoot) else { return nil }
        let folder = parent == "/" ? "/\(PathName.base(of: directory))" : "\(parent)/\(PathName.base(of: directory))"
        guard Self.isOutside(folder, storeRoot), makeDirectory(folder),
              let status = try? fileSystem.status(folder), status.st_mode & S_IFMT == S_IFDIR,
              status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else { return nil }
        return folder
    }

    private static func isOutside(_ resolved: String, _ storeRoot: String) -> Bool {
        resolved != storeRoot && !resolved.hasPrefix(storeRoot == "/" ? "/" : storeRoot + "/")
    }

    /// `path` resolved, after creating it (mode 0700) when it is missing and its parent exists;
    /// nil when it is (or would be) `storeRoot` or inside it.
    private func resolvedCreating(_ path: String, outside storeRoot: String) -> String? {
        func outside(_ resolved: String) -> Bool { Self.isOutside(resolved, storeRoot) }
        if let resolved = Self.resolvedPath(path) { return outside(resolved) ? resolved : nil }
        guard let parent = Self.resolvedPath(PathName.directory(of: path)) else { return nil }
        let target = parent == "/" ? "/\(PathName.base(of: path))" : "\(parent)/\(PathName.base(of: path))"
        guard outside(target), makeDirectory(target), let resolved = Self.resolvedPath(target), outside(resolved) else { return nil }
        return resolved
    }

    /// `mkdir(path, 0700)` (less the umask); true when it made the folder or one was there.
    private func makeDirectory(_ path: String) -> Bool {
        do {
            try systemCall("mkdir") { fileSystem.mkdir(path, 0o700) }
            return true
        } catch {
            return error.code == EEXIST
        }
    }

    /// `realpath(3)`: absolute, no symbolic links, no `.` or `..`.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(validatingCString: resolved)
    }
}
