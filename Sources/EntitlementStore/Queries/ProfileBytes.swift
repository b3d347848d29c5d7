import EntitlementBasics
import EntitlementModel

/// One customer's profile file as bytes, for a command that reads them itself (`status --json`
/// over flat transactions): read as `check` reads them (`ProfileFileReader`: a regular file in
/// the profiles folder, never through a link), a large file into huge pages.
package final class ProfileBytes {
    private let reader: ProfileFileReader

    private init(_ reader: ProfileFileReader) { self.reader = reader }

    /// The file of `userID`; nil where the full path must look: no such file, an empty one, or
    /// one that cannot be read (the full path then finds an alias, or reports the error).
    package static func read(_ userID: String, in store: EntitlementStore) -> ProfileBytes? {
        guard let directory = try? ProfileFileReader.openDirectory(store.profilesPath) else { return nil }
        defer { ProfileFileReader.closeDirectory(directory) }
        let reader = ProfileFileReader(directory: directory, directoryPath: store.profilesPath)
        guard (try? reader.read(relative: store.layout.profileFile(for: userID))) == true, reader.bytes.count > 0 else { return nil }
        return ProfileBytes(reader)
    }

    /// Lends the bytes to `body`; they stay valid while it runs.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(reader.bytes.bindMemory(to: UInt8.self))
    }
}
