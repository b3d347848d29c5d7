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
/// (`TeamIndexAtScaleTests`, under load). A change not committed is never merged over (the
/// fast-forward checks again each file it replaces, `GitFastForward`), and a merge that must be
/// undone (or one a kill interrupted) goes back to HEAD with `reset --hard`, which is safe
/// only because the working tree was clean when the merge began. The store lock is held from
/// before the check until after the merge, so no writer of the tool's can change the store
/// between the two. When the fetch brings nothing, the check is cancelled (`abandon`).
final class UncommittedCheck: Sendable {
    /// What the check's thread shares with the caller: the cancellation, and git's run.
    private final class Shared: Sendable {
        let cancellation = Subprocess.Cancellation()
        let run = Mutex<Result<Subprocess.Result, EntitlementError>?>(nil)
    }

    private let shared = Shared()
    private let thread: WorkerThread?

    /// Starts `git status` in `repository` (here, when no thread can be started).
    init(_ repository: GitRepository) {
        let shared = self.shared
        thread = WorkerThread.startOrRun {
            let run = Result { () throws(EntitlementError) -> Subprocess.Result in
                try repository.run(["--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=no", "--ignore-submodules=all", "--no-renames"],
                                   cancellation: shared.cancellation)
            }
            shared.run.withLock { $0 = run }
        }
    }

    /// Waits for the check; throws when the store has uncommitted changes (or git failed).
    func requireClean(_ storeRoot: String) throws(EntitlementError) {
        thread?.wait()
        guard let run = shared.run.withLock({ $0 }) else { throw .git(message: "git status did not finish in \(storeRoot)", hint: nil) }
        let result = try run.get()
        guard result.succeeded else {
            throw .git(message: "git status failed in \(storeRoot): \(GitRepository.firstLines(result.errorText))", hint: nil)
        }
        let dirty = result.output.split(separator: "\0").map { String($0.dropFirst(3)) }
        guard dirty.isEmpty else {
            throw .git(message: "\(storeRoot) has uncommitted changes: \(dirty.prefix(3).joined(separator: ", "))",
                       hint: "Commit them ('git -C STORE commit -a') or undo them, then sync again.")
        }
    }

    /// Stops the check when it is still running and waits for its thread (the fetch brought
    /// nothing, or failed). True unless git had to be killed (it takes no lock, but the marker
    /// of a local git run is removed only when no git of the tool's was killed).
    @discardableResult
    func abandon() -> Bool {
        shared.cancellation.cancel()
        thread?.wait()
        guard case .success(let result) = shared.run.withLock({ $0 }) else { return true }
        return !result.cancelled
    }
}
