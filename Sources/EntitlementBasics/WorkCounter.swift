import Synchronization

/// Counts the steps an algorithm takes (elements visited, comparisons made), so tests can
/// check how work grows with input size without reading a clock (the engines
/// must stay O(n log n) in a profile's transactions).
///
/// Engines hold an optional counter; nil (the default outside tests) costs one branch.
package final class WorkCounter: Sendable {
    private let count = Atomic<Int>(0)

    package init() {}

    /// Steps counted so far.
    var steps: Int { count.load(ordering: .relaxed) }

    package func add(_ steps: Int) { count.add(steps, ordering: .relaxed) }

    package func reset() { count.store(0, ordering: .relaxed) }
}

extension Optional where Wrapped == WorkCounter {
    /// Counts `steps` when there is a counter.
    @inline(__always)
    package func add(_ steps: Int) { if let counter = self { counter.add(steps) } }
}
