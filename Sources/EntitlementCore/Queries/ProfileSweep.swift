/// Reads and decodes every profile of a store on all cores, in streaming batches.
///
/// Each batch of paths is split into one part per core; every part folds its profiles into
/// its own accumulator (`Part`), and the accumulators are handed to `collect` in path
/// order before the next batch is read. Memory holds one batch of profiles at a time.
struct ProfileSweep<Part: Sendable> {
    let scan: ProfileScan
    /// Rules out files before decoding; nil decodes every file.
    var prefilter: ProfilePrefilter?
    /// A fresh accumulator for one part.
    let makePart: @Sendable () -> Part
    /// Folds one decoded profile into a part.
    let visit: @Sendable (inout Part, Profile) -> Void
    /// Folds one unreadable file into a part.
    let fail: @Sendable (inout Part, EntitlementError) -> Void

    /// Runs the sweep; `progress` gets the number of files done after each batch.
    func run(progress: (Int) -> Void = { _ in }, collect: (Part) throws(EntitlementError) -> Void) throws(EntitlementError) {
        var done = 0
        let prefilter = self.prefilter
        let makePart = self.makePart, visit = self.visit, fail = self.fail
        let fileSystem = scan.store.fileSystem
        try scan.forEachBatch { (paths) throws(EntitlementError) in
            let parts = Parallel.mapParts(paths, threshold: 32) { slice in
                var part = makePart()
                for path in slice {
                    do throws(EntitlementError) {
                        guard let bytes = try fileSystem.readFile(path) else { continue }  // removed since the listing
                        if let prefilter, !prefilter.mayMatch(bytes) { continue }
                        visit(&part, try EntitlementStore.decodeProfile(bytes, path: path))
                    } catch {
                        fail(&part, error)
                    }
                }
                return part
            }
            for part in parts { try collect(part) }
            done += paths.count
            progress(done)
        }
    }
}
