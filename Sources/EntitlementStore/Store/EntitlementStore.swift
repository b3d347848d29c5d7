import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// A store directory: `config.json`, one file per profile, and the writer lock.
///
/// Reads open exactly the files they need: a lookup by user id reads that
/// profile's file only, whatever the size of the store.
package struct EntitlementStore: Sendable {
    package let root: String
    /// How long writers wait for the lock (seconds).
    package var lockTimeout: Double
    /// Writes fsync file and directory. Off only for generating benchmark stores.
    package var durable = true
    /// The system calls the store makes; tests inject failures here.
    package var fileSystem: FileSystem = .system
    /// In a team store, records each locked write as one commit; nil for a plain store.
    package var recorder: (any ChangeRecorder)?
    /// The profile layout, once `config.json` has been read.
    let layoutCache = LayoutCache()
    /// Counts the listings of every profile folder "did you mean" falls back to (tests; nil otherwise).
    var nameListings: WorkCounter?

    package static let configFileName = "config.json"
    package static let profilesDirectory = StoreFileKind.profile.directory
    package static let profileIDIndexDirectory = StoreFileKind.profileIDIndexEntry.directory
    package static let lockFileName = ".lock"
    package static let defaultLockTimeout = 10.0

    package init(root: String, lockTimeout: Double = EntitlementStore.defaultLockTimeout) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.lockTimeout = lockTimeout
    }

    package var configPath: String { "\(root)/\(Self.configFileName)" }
    var profilesPath: String { "\(root)/\(Self.profilesDirectory)" }

    /// The file that holds (or would hold) the profile of `userID`.
    package func profilePath(for userID: String) -> String {
        "\(root)/\(relativeProfilePath(for: userID))"
    }

    /// `profiles/NAME.json`, or `profiles/ab/cd/NAME.json` in the fanout layout.
    func relativeProfilePath(for userID: String) -> String {
        "\(Self.profilesDirectory)/\(layout.profileFile(for: userID))"
    }

    func profileIDIndexPath(for profileID: String) -> String {
        "\(root)/\(relativeProfileIDIndexPath(for: profileID))"
    }

    func relativeProfileIDIndexPath(for profileID: String) -> String {
        "\(Self.profileIDIndexDirectory)/\(layout.relativePath(forName: ProfileFileName.name(for: profileID)))"
    }

    /// The layout `config.json` names; flat when there is no readable configuration
    /// (a command that needs the configuration reports that itself).
    package var layout: ProfileLayout {
        if let layout = layoutCache.layout { return layout }
        let layout = (try? loadConfiguration().profileLayout) ?? .flat
        layoutCache.remember(layout)
        return layout
    }

    /// Throws `storeMissing` unless `root` holds a store, and `migrationInProgress` while an
    /// interrupted `migrate` has profiles half moved (`MigrationMarker.swift`). A store this
    /// user may not look into is an I/O error naming the cause ("Permission denied"), never "no store".
    package func requireExists() throws(EntitlementError) {
        guard try fileSystem.status(configPath) != nil else { throw .storeMissing(path: root) }
        try requireNoMigration()
    }

    // MARK: Configuration

    package func loadConfiguration() throws(EntitlementError) -> ProductConfiguration {
        guard let bytes = try fileSystem.readFile(configPath) else { throw .storeMissing(path: root) }
        let document = try Self.parse(bytes, path: configPath)
        let configuration: ProductConfiguration
        do {
            configuration = try ProductConfiguration(json: document)
        } catch {
            throw Self.fieldError(error, path: configPath)
        }
        layoutCache.remember(configuration.profileLayout)
        return configuration
    }

    // MARK: Profiles

    /// The profile of `userID`, or nil when the store has none.
    package func loadProfile(userID: String) throws(EntitlementError) -> Profile? {
        let path = profilePath(for: userID)
        guard let bytes = try fileSystem.readFile(path) else {
            try requireExists()
            return nil
        }
        let profile = try Self.decodeProfile(bytes, path: path)
        // Bytes, not Swift's canonical equivalence: "José" in NFC and NFD are two ids and two files.
        guard profile.customerUserID.utf8.elementsEqual(userID.utf8) else {
            throw .invalidFile(path: path, detail: "misplaced profile: it holds customer_user_id '\(Terminal.escape(profile.customerUserID))', but its file name is for '\(Terminal.escape(userID))'")
        }
        return profile
    }

    /// The profile whose `profile_id` is `profileID`: through the index, else by a scan.
    package func loadProfile(profileID: String) throws(EntitlementError) -> Profile? {
        try requireExists()
        if let bytes = try fileSystem.readFile(profileIDIndexPath(for: profileID)),
           let userID = String(validating: bytes, as: UTF8.self), !userID.isEmpty,
           let profile = try loadProfile(userID: userID), profile.answers(toProfileID: profileID) {
            return profile
        }
        // A scan must not stop at someone else's broken file; it is reported only
        // if the profile is not found, since it might have been the one.
        var firstFailure: EntitlementError?
        for path in try profileFiles() {
            do {
                guard let bytes = try fileSystem.readFile(path) else { continue }
                let profile = try Self.decodeProfile(bytes, path: path)
                // A misnamed file (its name is not its customer's) is not that customer's
                // profile: `verify` reports it, a lookup never returns it.
                let name = path.split(separator: "/").last.map(String.init) ?? path
                guard name == ProfileFileName.name(for: profile.customerUserID) + ".json" else { continue }
                if profile.answers(toProfileID: profileID) { return profile }
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure { throw firstFailure }
        return nil
    }

    /// Every profile file, flat or fanned out, in name order within each folder.
    func profileFiles() throws(EntitlementError) -> [String] {
        var files: [String] = []
        try ProfileScan(store: self).forEachBatch { files += $0 }
        return files
    }

    // MARK: Decoding

    package static func parse(_ bytes: [UInt8], path: String) throws(EntitlementError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .invalidFile(path: path, detail: "invalid JSON at \(error.description)")
        }
    }

    /// The profile in a file's bytes: straight from the bytes (`ProfileDecoder`) when it can,
    /// else through the tree, which reports what is wrong with the file.
    package static func decodeProfile(_ bytes: [UInt8], path: String) throws(EntitlementError) -> Profile {
        if let profile = ProfileDecoder.decode(bytes) { return profile }
        return try decodeProfileTree(bytes, path: path)
    }

    /// The profile through the `JSONValue` tree: the reference for `ProfileDecoder`.
    static func decodeProfileTree(_ bytes: [UInt8], path: String) throws(EntitlementError) -> Profile {
        let document = try parse(bytes, path: path)
        do {
            return try Profile(json: document)
        } catch {
            throw fieldError(error, path: path)
        }
    }

    package static func fieldError(_ error: FieldError, path: String) -> EntitlementError {
        if let version = error.newerSchemaVersion { return .newerSchema(path: path, version: version) }
        return .invalidFile(path: path, detail: error.description)
    }
}
