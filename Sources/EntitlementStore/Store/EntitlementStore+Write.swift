import Glibc
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Writing the store: every write runs under the lock, goes through `commit` (all or
/// nothing), and is checked against the reader's rules first.
extension EntitlementStore {
    /// Writes `configuration`. Call only while holding the lock (`withWriteLock`).
    package func saveConfiguration(_ configuration: ProductConfiguration) throws(EntitlementError) {
        try commit([try configurationChange(configuration)])
    }

    /// Writes `profile`, then its profile-id index entry. Call only while holding the lock.
    /// Returns warnings: the index is a cache, so failing to update it does not undo or
    /// fail the saved profile (a lookup by profile id then scans, and the next save repairs it).
    @discardableResult
    package func saveProfile(_ profile: Profile) throws(EntitlementError) -> [String] {
        try save(configuration: nil, profiles: [profile])
    }

    /// Writes a configuration and profiles together: all of them or none. Call only while
    /// holding the lock. Returns warnings, as `saveProfile` does.
    @discardableResult
    /// `alongside`: other store files written in the same journal (ingest's event records).
    package func save(configuration: ProductConfiguration?, profiles: [Profile], alongside extra: [FileChange] = []) throws(EntitlementError) -> [String] {
        var changes: [FileChange] = []
        if let configuration { changes.append(try configurationChange(configuration)) }
        for profile in profiles { changes.append(try profileChange(profile)) }
        changes += try aliasIndexChanges(for: profiles)
        changes += extra
        try commit(changes, syncOnce: changes.count > Self.parallelStagingThreshold)
        return updateIndexes(profiles)
    }

    /// Runs a read-modify-write under the store's writer lock, after completing or
    /// discarding what a killed writer left (`recover`).
    /// In a team store, everything `body` writes becomes one commit described by `change`
    /// (nothing written, no commit).
    /// `resumingMigration` is `migrate`'s alone: every other writer refuses while an
    /// interrupted migration's marker is there, checked again once the lock is held.
    package func withWriteLock<T>(_ change: ChangeDescription? = nil, resumingMigration: Bool = false,
                                  _ body: () throws(EntitlementError) -> T) throws(EntitlementError) -> T {
        guard fileSystem.exists(configPath) else { throw .storeMissing(path: root) }
        if !resumingMigration { try requireNoMigration() }
        return try lock.withLock { () throws(EntitlementError) -> T in
            try recover()
            if !resumingMigration { try requireNoMigration() }
            guard let recorder else { return try body() }
            try recorder.begin(change)
            let result = try body()
            try recorder.finish()
            return result
        }
    }

    /// The writer lock, created with the store's file mode.
    package var lock: StoreLock {
        StoreLock(path: "\(root)/\(Self.lockFileName)", timeout: lockTimeout, fileSystem: fileSystem, mode: newModes().file)
    }

    // MARK: Encoding, checked against the reader

    /// The bytes of `profile`'s file, refused if the reader would refuse them
    /// (nesting deeper than the parser's cap, duplicate keys, a field it cannot decode).
    func profileChange(_ profile: Profile) throws(EntitlementError) -> FileChange {
        let path = profilePath(for: profile.customerUserID)
        let bytes = JSONWriter().bytes(profile.json)
        do throws(EntitlementError) {
            let readBack = try Self.decodeProfile(bytes, path: path)
            guard readBack.customerUserID.utf8.elementsEqual(profile.customerUserID.utf8) else {
                throw EntitlementError.invalidFile(path: path, detail: "customer_user_id does not read back")
            }
        } catch {
            throw Self.unreadable(path, error)
        }
        return FileChange(path: relativeProfilePath(for: profile.customerUserID), bytes: bytes)
    }

    func configurationChange(_ configuration: ProductConfiguration) throws(EntitlementError) -> FileChange {
        // Unsorted: the order of entitlements in config.json is the order status shows.
        let bytes = JSONWriter(sortKeys: false).bytes(configuration.json)
        let document: JSONValue
        do {
            document = try Self.parse(bytes, path: configPath)
        } catch {
            throw Self.unreadable(configPath, error)
        }
        do {
            _ = try ProductConfiguration(json: document)
        } catch {
            throw Self.unreadable(configPath, Self.fieldError(error, path: configPath))
        }
        return FileChange(path: Self.configFileName, bytes: bytes)
    }

    private static func unreadable(_ path: String, _ error: EntitlementError) -> EntitlementError {
        let detail: String
        switch error {
        case .invalidFile(_, let text): detail = text
        case .newerSchema(_, let version): detail = "schema_version \(version) is newer than this tool reads"
        default: detail = error.description
        }
        return .invalidFile(path: path, detail: "not written: the result would not read back (\(detail)); the store is unchanged")
    }

    /// Points the profile-id index at `profile`'s user; a warning instead of an error.
    /// Brings the profile-id index entries of `profiles` up to date, all in one journal: a batch
    /// of new profiles (ingest's 500) costs one durable commit, not one per profile.
    private func updateIndexes(_ profiles: [Profile]) -> [String] {
        var entries: [FileChange] = []
        var warnings: [String] = []
        for profile in profiles {
            guard let profileID = profile.profileID, !profileID.isEmpty else { continue }
            let userID = Array(profile.customerUserID.utf8)
            do {
                if try fileSystem.readFile(profileIDIndexPath(for: profileID)) == userID { continue }
                entries.append(FileChange(path: relativeProfileIDIndexPath(for: profileID), bytes: userID))
            } catch {
                warnings.append(Self.indexWarning(error))
            }
        }
        guard !entries.isEmpty else { return warnings }
        do {
            try commit(entries, syncOnce: entries.count > Self.parallelStagingThreshold)
        } catch {
            warnings.append(Self.indexWarning(error))
        }
        return warnings
    }

    private static func indexWarning(_ error: EntitlementError) -> String {
        "the profile was saved, but its profile-id index entry was not (\(error.description)); lookups by --profile-id scan the store until the next save of this profile"
    }

    // MARK: Files and directories

    /// Modes for new files and directories (StorePolicy.modes).
    package func newModes() -> (file: mode_t, directory: mode_t) {
        StorePolicy.modes(configStatus: (try? fileSystem.status(configPath)) ?? nil, rootStatus: (try? fileSystem.status(root)) ?? nil)
    }

    /// Creates `relative` (and each missing directory on the way) inside the store,
    /// refusing any that is a symbolic link. In a durable store each new directory's entry is
    /// fsynced in its parent (a fan-out folder made by a grant survives a crash with the file
    /// renamed into it); `syncParents: false` leaves that to one sync of the whole file system.
    package func ensureDirectory(_ relative: String, mode: mode_t, syncParents: Bool = true) throws(EntitlementError) {
        try ensureDirectories([relative], mode: mode, syncParents: syncParents)
    }

    /// `ensureDirectory` of each of `relatives`, each folder on the way looked at once, and
    /// each parent that gained a directory fsynced once, after all are made: a batch that makes
    /// 200 fan-out folders under one parent syncs that parent once, not 200 times.
    func ensureDirectories(_ relatives: [String], mode: mode_t, syncParents: Bool = true) throws(EntitlementError) {
        var seen: Set<String> = []
        var parentsToSync: [String] = []
        for relative in relatives where relative != "." {
            var path = root
            for component in relative.split(separator: "/") {
                let parent = path
                path += "/\(component)"
                guard seen.insert(path).inserted else { continue }
                if try fileSystem.makeDirectory(path, mode: mode), !parentsToSync.contains(parent) {
                    parentsToSync.append(parent)
                }
            }
        }
        guard durable, syncParents else { return }
        for parent in parentsToSync { try fileSystem.syncDirectory(parent) }
    }
}

extension EntitlementStore {
    /// For `init`: the store directory (mode 0700 when new; an existing directory, or a
    /// link to one, is kept as it is) with its missing parents, and `profiles/`.
    package func createDirectories() throws(EntitlementError) {
        if fileSystem.exists(configPath) { throw .storeExists(path: root) }
        if fileSystem.exists(root), !fileSystem.isDirectory(root) { throw .io(path: root, message: "exists and is not a directory") }
        try makeParents(of: root)
        try fileSystem.makeDirectory(root, mode: StorePolicy.defaultDirectoryMode, followLink: true)
        try ensureDirectory(Self.profilesDirectory, mode: newModes().directory)
    }

    /// `mkdir -p` of the directories above the store: outside it, so the umask decides their mode.
    private func makeParents(of path: String) throws(EntitlementError) {
        let parent = PathName.directory(of: path)
        guard parent != path, parent != ".", parent != "/", !fileSystem.isDirectory(parent) else { return }
        try makeParents(of: parent)
        do {
            try systemCall("mkdir") { fileSystem.mkdir(parent, 0o777) }
        } catch where error.code == EEXIST && fileSystem.isDirectory(parent) {
        } catch {
            throw .io(path: parent, message: "cannot create directory: \(error.message)")
        }
    }
}
