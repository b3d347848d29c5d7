import Glibc
import Synchronization

/// Warms the page cache for files that one reader is about to read in order.
///
/// A few threads open each file ahead of the reader and ask the kernel for its contents
/// (`POSIX_FADV_WILLNEED`), so that many reads are in flight where the reader alone would
/// wait for one at a time: on a cold cache, converting a million small files is bound by
/// those waits, not by the CPU. The threads never run more than `window` files ahead of
/// the position the reader reports, so the cache is not flooded. A hint only: a file
/// that cannot be opened is skipped, and the reader reads every file itself.
package final class ReadAhead: Sendable {
    private let paths: [String]
    private let window: Int
    private let next = Atomic<Int>(0)
    private let reached = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let threads = Mutex<[WorkerThread]>([])

    private init(paths: [String], window: Int) {
        self.paths = paths
        self.window = window
    }

    /// Starts `threads` threads warming `paths`; call `reader(at:)` as the reader goes and
    /// `stop()` when it is done.
    package static func start(_ paths: [String], threads count: Int = 4, window: Int = 4096) -> ReadAhead {
        let ahead = ReadAhead(paths: paths, window: max(1, window))
        let started = (0..<max(0, count)).compactMap { _ in WorkerThread.start { ahead.warm() } }
        ahead.threads.withLock { $0 = started }
        return ahead
    }

    /// The reader is about to read `paths[index]`.
    package func reader(at index: Int) { reached.store(index, ordering: .relaxed) }

    /// Stops the threads and waits for them.
    package func stop() {
        stopped.store(true, ordering: .relaxed)
        for thread in threads.withLock({ $0 }) { thread.wait() }
    }

    private func warm() {
        while !stopped.load(ordering: .relaxed) {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < paths.count else { return }
            while index > reached.load(ordering: .relaxed) + window {
                if stopped.load(ordering: .relaxed) { return }
                usleep(500)
            }
            // Basics sits below the store's `FileSystem`: its seam is `systemCall` itself.
            guard let fd = try? systemCall("open", { open(paths[index], O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0) }) else { continue }
            _ = try? systemCall("posix_fadvise") { posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED) }
            closeDescriptor(fd)
        }
    }
}
