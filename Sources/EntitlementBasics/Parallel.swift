import FoundationEssentials
import Synchronization

/// Work spread over every core, results kept in input order.
package enum Parallel {
    /// Threads to use: the cores, at most 8.
    package static let workers = max(1, min(ProcessorCount.online(), 8))
    /// Threads for work that mostly waits on the disk (`fsync` of many files): more than the
    /// cores, so that the device flushes of several files are in flight, and merged, at once.
    package static let waitingWorkers = 8

    /// `transform` of every item, computed on all cores; below `threshold` items, on one.
    ///
    /// The threads take chunks of `chunkSize` items in turn rather than one fixed share each,
    /// so a thread slowed down by other work on the machine does not hold the others up.
    package static func map<Item: Sendable, Result: Sendable>(_ items: [Item], threshold: Int = 64, chunkSize: Int = 32, threads: Int = workers,
                                                      _ transform: @Sendable (Item) -> Result) -> [Result] {
        guard items.count >= threshold, threads > 1 else { return items.map(transform) }
        let size = max(1, chunkSize)
        let chunks = (items.count + size - 1) / size
        let results = PartResults<[Result]>(count: chunks)
        let next = Atomic<Int>(0)
        WorkerThread.perform(min(threads, chunks)) { _ in
            while true {
                let chunk = next.add(1, ordering: .relaxed).oldValue
                guard chunk < chunks else { return }
                results.set(chunk, items[chunk * size..<min((chunk + 1) * size, items.count)].map(transform))
            }
        }
        return results.all().flatMap { $0 }
    }

    /// Splits `items` into one contiguous part per core and returns each part's result, in order.
    package static func mapParts<Item: Sendable, Result: Sendable>(_ items: [Item], threshold: Int = 64,
                                                           _ body: @Sendable (ArraySlice<Item>) -> Result) -> [Result] {
        guard items.count >= threshold, workers > 1 else { return [body(items[...])] }
        let parts = workers
        let size = (items.count + parts - 1) / parts
        let results = PartResults<Result>(count: parts)
        WorkerThread.perform(parts) { part in
            results.set(part, body(items[min(part * size, items.count)..<min((part + 1) * size, items.count)]))
        }
        return results.all()
    }
}

/// Each thread's results, collected under a lock and joined in part order.
private final class PartResults<Result: Sendable>: Sendable {
    private let parts: Mutex<[Result?]>

    init(count: Int) { parts = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ result: Result) { parts.withLock { $0[index] = result } }

    func all() -> [Result] { parts.withLock { $0.compactMap { $0 } } }
}
