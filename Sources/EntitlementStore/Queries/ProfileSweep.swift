import Synchronization
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// Reads and decodes every profile of a store on all cores, in streaming batches.
///
/// The listing of the next batch overlaps the work on the current one. A batch is cut
/// into chunks that the threads take in turn (a thread slowed down by other work does
/// not hold the others up); every chunk folds its profiles into its own accumulator
/// (`Part`), and the accumulators are handed to `collect` in path order, on the calling
/// thread. Memory holds at most two batches of paths and one batch of parts.
package struct ProfileSweep<Part: Sendable> {
    let scan: ProfileScan
    /// Rules out files before decoding; nil decodes every file.
    var prefilter: ProfilePrefilter?
    /// A fresh accumulator for one part.
    let makePart: @Sendable () -> Part
    /// Folds one decoded profile into a part.
    let visit: @Sendable (inout Part, Profile) -> Void
    /// Folds one unreadable file into a part.
    let fail: @Sendable (inout Part, EntitlementError) -> Void
    /// Paths per chunk.
    var chunkSize = 64
    /// Asked before each batch: true ends the sweep early (nobody reads the output any more).
    package var stop: () -> Bool = { false }

    package init(scan: ProfileScan, prefilter: ProfilePrefilter? = nil, makePart: @escaping @Sendable () -> Part, visit: @escaping @Sendable (inout Part, Profile) -> Void, fail: @escaping @Sendable (inout Part, EntitlementError) -> Void, stop: @escaping () -> Bool = { false }) {
        self.scan = scan
        self.prefilter = prefilter
        self.makePart = makePart
        self.visit = visit
        self.fail = fail
        self.stop = stop
    }

    /// Runs the sweep; `progress` gets the number of files done after each batch.
    package func run(progress: (Int) -> Void = { _ in }, collect: (Part) throws(EntitlementError) -> Void) throws(EntitlementError) {
        try scan.store.requireExists()
        guard scan.store.fileSystem.isDirectory(scan.store.profilesPath) else { return }
        let directoryPath = scan.store.profilesPath
        let directory = try ProfileFileReader.openDirectory(directoryPath)
        defer { ProfileFileReader.closeDirectory(directory) }
        var done = 0
        var inFlight: (batch: Int, work: SweepBatch<Part>)?
        defer { _ = inFlight?.work.wait() }  // never leave a batch running on a thrown error
        func finish() throws(EntitlementError) {
            guard let (count, work) = inFlight else { return }
            inFlight = nil
            for part in work.wait() { try collect(part) }
            done += count
            progress(done)
        }
        try scan.forEachBatch { (paths) throws(EntitlementError) in
            guard !stop() else { return }  // the listing runs out; nothing more is read
            let work = SweepBatch(paths: paths, chunkSize: chunkSize, directory: directory, directoryPath: directoryPath,
                                  prefilter: prefilter, makePart: makePart, visit: visit, fail: fail)
            try finish()
            work.start()
            inFlight = (paths.count, work)
        }
        try finish()
    }
}

/// One batch of a sweep, worked on in the background by every core.
private final class SweepBatch<Part: Sendable>: Sendable {
    let paths: [String]
    let chunkSize: Int
    let directory: Int32
    let directoryPath: String
    let prefilter: ProfilePrefilter?
    let makePart: @Sendable () -> Part
    let visit: @Sendable (inout Part, Profile) -> Void
    let fail: @Sendable (inout Part, EntitlementError) -> Void
    private let nextChunk = Atomic<Int>(0)
    private let parts: Mutex<[Part?]>
    private let runner = Mutex<WorkerThread?>(nil)

    init(paths: [String], chunkSize: Int, directory: Int32, directoryPath: String, prefilter: ProfilePrefilter?,
         makePart: @escaping @Sendable () -> Part, visit: @escaping @Sendable (inout Part, Profile) -> Void,
         fail: @escaping @Sendable (inout Part, EntitlementError) -> Void) {
        self.paths = paths
        self.chunkSize = max(1, chunkSize)
        self.directory = directory
        self.directoryPath = directoryPath
        self.prefilter = prefilter
        self.makePart = makePart
        self.visit = visit
        self.fail = fail
        parts = Mutex(Array(repeating: nil, count: (paths.count + self.chunkSize - 1) / self.chunkSize))
    }

    /// Starts the work on a background thread, which spreads it over every core.
    func start() {
        let chunks = (paths.count + chunkSize - 1) / chunkSize
        let threads = min(Parallel.workers, max(chunks, 1))
        // No thread to be had: the work is done now, before the listing goes on.
        let thread = WorkerThread.startOrRun { [self] in WorkerThread.perform(threads) { _ in work() } }
        runner.withLock { $0 = thread }
    }

    /// Waits for the work and returns the parts in path order.
    func wait() -> [Part] {
        runner.withLock { $0 }?.wait()
        return parts.withLock { $0.compactMap { $0 } }
    }

    /// One thread: takes chunks until none is left.
    private func work() {
        let reader = ProfileFileReader(directory: directory, directoryPath: directoryPath)
        var validator = JSONValidator()
        while true {
            let chunk = nextChunk.add(1, ordering: .relaxed).oldValue
            let start = chunk * chunkSize
            guard start < paths.count else { return }
            var part = makePart()
            for path in paths[start..<min(start + chunkSize, paths.count)] {
                do throws(EntitlementError) {
                    guard try reader.read(path) else { continue }  // removed since the listing
                    // Ruled out, and well formed: nothing to decode. A damaged file is decoded,
                    // so that its error is reported whatever the query.
                    if let prefilter, !prefilter.mayMatch(reader.bytes), validator.isWellFormedObject(reader.bytes) { continue }
                    visit(&part, try EntitlementStore.decodeProfile([UInt8](reader.bytes), path: path))
                } catch {
                    fail(&part, error)
                }
            }
            parts.withLock { $0[chunk] = part }
        }
    }
}
