import Glibc
import Synchronization
@testable import EntitlementStore

/// Counts the bytes a store reads through its file-system seam, for the counted-work tests
/// (work measured without a clock: each size 4× the last should read about 4× the bytes).
final class ReadCounter: Sendable {
    private let counted = Atomic<Int>(0)

    /// The bytes read so far.
    var bytes: Int { counted.load(ordering: .relaxed) }

    /// `store` with its reads counted here.
    func counting(_ store: EntitlementStore) -> EntitlementStore {
        var store = store
        var fileSystem = FileSystem.system
        fileSystem.read = { [self] fd, buffer, count in
            let read = Glibc.read(fd, buffer, count)
            if read > 0 { counted.add(read, ordering: .relaxed) }
            return read
        }
        store.fileSystem = fileSystem
        return store
    }
}
