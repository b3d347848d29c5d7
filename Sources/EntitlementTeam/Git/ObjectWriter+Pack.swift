import EntitlementBasics
import EntitlementModel
import EntitlementStore

extension ObjectWriter {
    /// Writes `objects` as one pack and its index in `objects/pack`, durably when `durable`.
    ///
    /// Both files are staged under the name a killed commit's recovery removes
    /// (`GitStaleFiles.objectStagingPrefix`) and fsynced; then the pack is renamed into place,
    /// then its index (git sees a pack only through its index), then the folder is fsynced.
    static func writePack(_ objects: [Pending], in objectsDirectory: String, durable: Bool) throws(EntitlementError) {
        let file = PackFile(objects.map { ($0.digest, $0.type, Array($0.raw[$0.headerCount...])) })
        let directory = "\(objectsDirectory)/pack"
        let packPath = "\(directory)/pack-\(file.name).pack", indexPath = "\(directory)/pack-\(file.name).idx"
        // The same objects written before, to the byte: nothing to do.
        if GitFiles.exists(packPath), GitFiles.exists(indexPath) { return }
        try GitFiles.makeDirectory(directory)
        let fileSystem = GitFiles.system
        var staged: [String] = []
        do throws(EntitlementError) {
            for (bytes, target) in [(file.pack, packPath), (file.index, indexPath)] {
                staged.append(try fileSystem.stage(bytes, replacing: target, in: directory, newFileMode: 0o444, durable: durable,
                                                   prefix: GitStaleFiles.objectStagingPrefix))
            }
            try fileSystem.install(staged[0], as: packPath, durable: false)
            try fileSystem.install(staged[1], as: indexPath, durable: false)
        } catch {
            for path in staged { _ = fileSystem.unlink(path) }
            throw error
        }
        if durable { try fileSystem.syncDirectory(directory) }
    }
}
