import Dispatch
import FoundationEssentials
import Synchronization

/// Work spread over every core, results kept in input order.
enum Parallel {
    /// Threads to use: the cores, at most 8.
    static let workers = min(ProcessorCount.online(), 8)

    /// `transform` of every item, computed on all cores; below `threshold` items, on one.
    static func map<Item: Sendable, Result: Sendable>(_ items: [Item], threshold: Int = 64,
                                                      _ transform: @Sendable (Item) -> Result) -> [Result] {
        mapParts(items, threshold: threshold) { $0.map(transform) }.flatMap { $0 }
    }

    /// Splits `items` into one contiguous part per core and returns each part's result, in order.
    static func mapParts<Item: Sendable, Result: Sendable>(_ items: [Item], threshold: Int = 64,
                                                           _ body: @Sendable (ArraySlice<Item>) -> Result) -> [Result] {
        guard items.count >= threshold, workers > 1 else { return [body(items[...])] }
        let parts = workers
        let size = (items.count + parts - 1) / parts
        let results = PartResults<Result>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
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
