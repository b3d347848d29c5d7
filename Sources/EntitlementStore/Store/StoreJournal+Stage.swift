import Glibc
import EntitlementBasics
import EntitlementModel

extension EntitlementStore {
    /// Files below this count are staged on one thread.
    static let parallelStagingThreshold = 64

    /// Writes every change's bytes to a new file in `.tmp/` and returns the renames, in
    /// the order of `changes`. With `parallel`, the files are written on every core (bulk
    /// writes: the renames, the commit point, stay on one thread). On a failure, every
    /// file staged here is removed and the first failure, in the order of `changes`, is thrown.
    func stageAll(_ changes: [FileChange], fileMode: mode_t, fsyncEach: Bool,
                  parallel: Bool) throws(EntitlementError) -> [(from: String, to: String)] {
        let fileSystem = self.fileSystem, root = self.root, stagingPath = self.stagingPath
        let stageOne: @Sendable (FileChange) -> Swift.Result<String, EntitlementError> = { change in
            do throws(EntitlementError) {
                let staged = try fileSystem.stage(change.bytes, replacing: "\(root)/\(change.path)", in: stagingPath,
                                                  newFileMode: fileMode, durable: fsyncEach)
                return .success("\(Self.stagingDirectory)/\(PathName.base(of: staged))")
            } catch {
                return .failure(error)
            }
        }
        var staged: [Swift.Result<String, EntitlementError>] = []
        if parallel {
            staged = Parallel.map(changes, threshold: Self.parallelStagingThreshold, stageOne)
        } else {
            // One at a time, stopping at the first failure.
            for change in changes {
                staged.append(stageOne(change))
                if case .failure = staged.last { break }
            }
        }
        var renames: [(from: String, to: String)] = []
        var firstFailure: EntitlementError?
        for (change, outcome) in zip(changes, staged) {
            switch outcome {
            case .success(let from): renames.append((from, change.path))
            case .failure(let error): firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure {
            for rename in renames { _ = try? systemCall("unlink") { fileSystem.unlink("\(root)/\(rename.from)") } }
            throw firstFailure
        }
        return renames
    }
}
