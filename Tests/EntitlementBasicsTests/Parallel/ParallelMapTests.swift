import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

extension UnitTests {
    /// The work spreader keeps input order.
    struct ParallelMapTests {
        /// Over generated sizes and chunk sizes, `Parallel.map` equals a plain `map`.
        @Test func parallelMapKeepsInputOrder() {
            var random = SplitMix64(seed: 21)
            for _ in 0..<60 {
                let items = (0..<Int(random.next() % 3000)).map { _ in random.next() }
                let chunkSize = 1 + Int(random.next() % 100)
                let threshold = Int(random.next() % 80)
                #expect(Parallel.map(items, threshold: threshold, chunkSize: chunkSize) { $0 &* 31 } == items.map { $0 &* 31 })
            }
        }
    }
}
