import Glibc
import EntitlementBasics
import EntitlementModel

extension EntitlementStore {
    /// Files below this count are staged on one thread.
    static let parallelStagingThreshold = 64

    /// Writes every change's bytes to a new file in `.tmp/` and returns the renames, in
    /// the order of `changes`. With `durable`, every file is written (its write-back started)
    /// before any is fsynced, then each is fsynced and `.tmp/` last: exactly the files and
    /// the folder the journal will name as sources, nothing else of the file system.
    /// With `parallel`, the files are written on every core and fsynced on more threads than
    /// that (`Parallel.waitingWorkers`: an fsync waits on the disk) (bulk writes: the renames,
    /// the commit point, stay on one thread). On a failure, every file staged here
    /// is removed and the first failure, in the order of `changes`, is thrown.
    func stageAll(_ changes: [FileChange], fileMode: mode_t, durable: Bool,
                  parallel: Bool) throws(EntitlementError) -> [(from: String, to: String)] {
        let fileSystem = self.fileSystem, root = self.root, stagingPath = self.stagingPath
        let stageOne: @Sendable (FileChange) -> Swift.Result<String, EntitlementError> = { change in
            do throws(EntitlementError) {
                let staged = try fileSystem.stage(change.bytes, replacing: "\(root)/\(change.path)", in: stagingPath,
                                                  newFileMode: fileMode, durable: false, writeBackEarly: durable)
                return .success("\(Self.stagingDirectory)/\(PathName.base(of: staged))")
            } catch {
                return .failure(error)
            }
        }
        var staged = each(changes, parallel: parallel, stageOne)
        if durable, !staged.contains(where: { if case .failure = $0 { true } else { false } }) {
            let synced = each(staged, parallel: parallel, threads: Parallel.waitingWorkers) { outcome -> Swift.Result<String, EntitlementError> in
                guard case .success(let from) = outcome else { return outcome }
                do throws(EntitlementError) {
                    try fileSystem.syncFile("\(root)/\(from)")
                    return .success(from)
                } catch {
                    return .failure(error)
                }
            }
            if case .failure(let error)? = synced.first(where: { if case .failure = $0 { true } else { false } }) {
                staged.append(.failure(error))  // reported below, after the staged files are removed
            } else {
                do throws(EntitlementError) {
                    try fileSystem.syncDirectory(stagingPath)
                } catch {
                    staged.append(.failure(error))
                }
            }
        }
        var renames: [(from: String, to: String)] = []
        var firstFailure: EntitlementError?
        for (index, outcome) in staged.enumerated() {
            switch outcome {
            case .success(let from) where index < changes.count: renames.append((from, changes[index].path))
            case .success: break
            case .failure(let error): firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure {
            for rename in renames { _ = try? systemCall("unlink") { fileSystem.unlink("\(root)/\(rename.from)") } }
            throw firstFailure
        }
        return renames
    }

    /// `body` of every item in order; with `parallel`, on `threads` threads (above the staging
    /// threshold), else on this thread, stopping after the first failure.
    private func each<Item: Sendable>(_ items: [Item], parallel: Bool, threads: Int = Parallel.workers,
                                      _ body: @Sendable (Item) -> Swift.Result<String, EntitlementError>) -> [Swift.Result<String, EntitlementError>] {
        if parallel { return Parallel.map(items, threshold: Self.parallelStagingThreshold, chunkSize: 8, threads: threads, body) }
        var results: [Swift.Result<String, EntitlementError>] = []
        for item in items {
            results.append(body(item))
            if case .failure = results.last { break }
        }
        return results
    }
}
