import Glibc
import Synchronization

/// One POSIX thread running one closure; `wait()` waits for it to return.
///
/// The tool starts its own threads rather than link a thread-pool library: Dispatch's
/// initializer runs at the start of every process that links it, a one-user `check`
/// included, where it asked the system for the number of processors twice and touched
/// pages of its own (docs/performance.md). Its threads are few and long-lived (one per
/// core for a batch, one for a background read or commit), so a pool saves nothing.
package final class WorkerThread: Sendable {
    private let handle: pthread_t
    /// Set once the thread has been joined; the lock is held through the join, so every
    /// waiter returns only after the closure has.
    private let joined = Mutex(false)

    private init(_ handle: pthread_t) { self.handle = handle }

    /// A thread nobody waited for is detached, so its resources go back when it ends.
    deinit {
        if !joined.withLock({ $0 }) { pthread_detach(handle) }
    }

    /// Starts `body` on a new thread; nil when the system would not start one (the caller
    /// then does the work itself).
    package static func start(_ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return nil
        }
        return WorkerThread(handle)
    }

    /// Starts `body` on a new thread; when none can be started, runs it here and returns nil
    /// (work that must be done, not a hint that may be dropped).
    package static func startOrRun(_ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        if let thread = start(body) { return thread }
        body()
        return nil
    }

    /// Waits for the thread's closure to return. It may be called again, from any thread
    /// (a `defer` after an early wait): later calls return once the closure has returned.
    package func wait() {
        joined.withLock { joined in
            guard !joined else { return }
            pthread_join(handle, nil)
            joined = true
        }
    }

    /// Runs `body(i)` for every `i` in `0..<count`, each on a thread of its own (`0` on the
    /// caller's), and returns when every one has returned.
    package static func perform(_ count: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let threads = (1..<count).map { index in start { body(index) } }
            body(0)
            for (offset, thread) in threads.enumerated() {
                if let thread { thread.wait() } else { body(offset + 1) }
            }
        }
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
