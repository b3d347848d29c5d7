import Synchronization
import EntitlementBasics
import EntitlementModel

/// `sync`'s check that nothing uncommitted is in the store, run on a thread of its own while
/// the fetch waits on the network.
///
/// One `git status` (every file's stat data, read on every core; a file whose stat data
/// changed, as in a copied store with new inode numbers, is compared by content): 2.3 s at 1M
/// profiles, which had run after the fetch. It runs with `--no-optional-locks`, so it never
/// takes git's index lock nor writes the index: with it writing the refreshed index beside the
/// fetch, the fast-forward that followed at times found `index.lock` taken and failed
/// (`TeamIndexAtScaleTests`, under load). The fast-forward refreshes the index itself. A change not committed is never merged over, and a merge that must be
/// undone (or one a kill interrupted) goes back to HEAD with `reset --hard`, which is safe
/// only because the working tree was clean when the merge began. The store lock is held from
/// before the check until after the merge, so no writer of the tool's can change the store
/// between the two. When the fetch brings nothing, the check is cancelled (`abandon`).
final class UncommittedCheck: Sendable {
    /// What the check's thread shares with the caller.
    private final class Shared: Sendable {
        let cancellation = Subprocess.Cancellation()
        let outcome = Mutex<Result<[String], EntitlementError>?>(nil)
    }

    private let shared = Shared()
    private let thread: WorkerThread?
    private var cancellation: Subprocess.Cancellation { shared.cancellation }

    /// Starts `git status` in `repository` (here, when no thread can be started).
    init(_ repository: GitRepository) {
        let shared = self.shared
        thread = WorkerThread.startOrRun {
            let result = Result { () throws(EntitlementError) -> [String] in try Self.uncommittedPaths(repository, shared.cancellation) }
            shared.outcome.withLock { $0 = result }
        }
    }

    /// Waits for the check; throws when the store has uncommitted changes (or git failed).
    func requireClean(_ storeRoot: String) throws(EntitlementError) {
        wait()
        guard let result = shared.outcome.withLock({ $0 }) else { throw .git(message: "git status did not finish in \(storeRoot)", hint: nil) }
        let dirty = try result.get()
        guard dirty.isEmpty else {
            throw .git(message: "\(storeRoot) has uncommitted changes: \(dirty.prefix(3).joined(separator: ", "))",
                       hint: "Commit them ('git -C STORE commit -a') or undo them, then sync again.")
        }
    }

    /// Stops the check when it is still running and waits for its thread (the fetch brought
    /// nothing, or failed). True when git ended by itself (it takes no lock, but the marker
    /// of a local git run is removed only when no git of the tool's was killed).
    @discardableResult
    func abandon() -> Bool {
        cancellation.cancel()
        wait()
        guard let result = shared.outcome.withLock({ $0 }) else { return false }
        if case .failure(let error) = result, error.description.contains("was cancelled") { return false }
        return true
    }

    private func wait() { thread?.wait() }

    private static func uncommittedPaths(_ repository: GitRepository, _ cancellation: Subprocess.Cancellation) throws(EntitlementError) -> [String] {
        let result = try repository.run(["--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=no", "--ignore-submodules=all", "--no-renames"],
                                        cancellation: cancellation)
        guard result.succeeded else {
            if result.cancelled { throw .git(message: "git status was cancelled in \(repository.root)", hint: nil) }
            throw .git(message: "git status failed in \(repository.root): \(GitRepository.firstLines(result.errorText))", hint: nil)
        }
        return result.output.split(separator: "\0").map { String($0.dropFirst(3)) }
    }
}
