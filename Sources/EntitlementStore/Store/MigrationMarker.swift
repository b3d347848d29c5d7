import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import Glibc

/// `migrate` in progress. A killed `migrate` leaves profiles in two
/// layouts while `config.json` still names the old one: a reader would answer "no profile"
/// for a moved customer, and a writer would create a second profile that a later run
/// renamed over the first. So `migrate` writes `.migration` (the target layout) before its
/// first rename and removes it after `config.json` names the new layout; while it is
/// there, every command that reads a missing profile or writes refuses
/// (`migrationInProgress`) until `migrate` is run again and finishes.
extension EntitlementStore {
    static let migrationMarkerName = ".migration"

    var migrationMarkerPath: String { "\(root)/\(Self.migrationMarkerName)" }

    /// Throws `migrationInProgress` when an interrupted migration's marker is there.
    func requireNoMigration() throws(EntitlementError) {
        guard fileSystem.exists(migrationMarkerPath) else { return }
        throw .migrationInProgress(path: root, layout: migrationTarget())
    }

    /// The layout the interrupted migration was moving to, when the marker names one.
    func migrationTarget() -> String? {
        guard let bytes = try? fileSystem.readFile(migrationMarkerPath, policy: .storeFile),
              let value = try? JSONParser.parse(bytes), let text = value.objectValue?[Self.migrationKey]?.stringValue,
              ProfileLayout(rawValue: text) != nil else { return nil }
        return text
    }

    /// Writes the marker durably, before the first rename.
    func beginMigration(to layout: ProfileLayout) throws(EntitlementError) {
        let bytes = JSONWriter().bytes(.object(JSONObject([(Self.migrationKey, .string(layout.rawValue))])))
        try ensureDirectory(Self.stagingDirectory, mode: newModes().directory)
        try fileSystem.replace(migrationMarkerPath, with: bytes, stagingDirectory: stagingPath,
                               newFileMode: newModes().file, durable: durable)
    }

    /// Removes the marker, after `config.json` names the new layout.
    func endMigration() throws(EntitlementError) {
        do {
            try systemCall("unlink") { fileSystem.unlink(migrationMarkerPath) }
        } catch {
            guard error.code != ENOENT else { return }
            throw .io(path: migrationMarkerPath, message: "cannot remove: \(error.message)")
        }
        if durable { try fileSystem.syncDirectory(root) }
    }

    private static let migrationKey = "migrating_to"
}
