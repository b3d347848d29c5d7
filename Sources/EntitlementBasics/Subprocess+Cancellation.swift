import Synchronization

extension Subprocess {
    /// Stops a run from another thread: `cancel()` kills the child (and its process group)
    /// within `pollInterval`, and the run's result says `cancelled`. For work started ahead
    /// of knowing whether it is needed (`sync`'s check for uncommitted edits, run while the
    /// fetch waits on the network).
    package final class Cancellation: Sendable {
        private let requested = Atomic<Bool>(false)

        package init() {}

        package func cancel() { requested.store(true, ordering: .releasing) }

        var isCancelled: Bool { requested.load(ordering: .acquiring) }

        /// How often a run that can be cancelled looks at its flag, in milliseconds.
        static let pollInterval: Int32 = 20
    }
}
