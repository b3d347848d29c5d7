import Glibc
import Synchronization
import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

extension UnitTests {
    /// The tool's own threads (`WorkerThread`), which stand in for a thread pool.
    struct WorkerThreadTests {
        /// Every index runs exactly once, each on a thread of its own, and `perform` returns
        /// only after all of them.
        @Test(arguments: [0, 1, 2, 3, 8, 33])
        func performRunsEveryIndexOnceOnItsOwnThread(count: Int) {
            let runs = Mutex([Int](repeating: 0, count: count))
            let threads = Mutex(Set<UInt>())
            WorkerThread.perform(count) { index in
                usleep(UInt32(1_000 * (index % 3)))  // finish out of order
                runs.withLock { $0[index] += 1 }
                threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            }
            #expect(runs.withLock { $0 } == [Int](repeating: 1, count: count))
            #expect(threads.withLock { $0.count } == count)
        }

        /// `wait` returns once the closure has returned, and a second wait returns at once.
        @Test func waitSeesTheWorkDoneAndMayBeRepeated() throws {
            final class Done: Sendable { let flag = Atomic<Bool>(false) }
            let done = Done()
            let thread = try #require(WorkerThread.start {
                usleep(20_000)
                done.flag.store(true, ordering: .releasing)
            })
            thread.wait()
            let seen = done.flag.load(ordering: .acquiring)
            #expect(seen)
            thread.wait()
        }
    }
}
