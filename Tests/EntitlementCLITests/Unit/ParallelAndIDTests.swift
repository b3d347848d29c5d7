import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
import EntitlementTestSupport

extension UnitTests {
    /// The work spreader keeps input order; the real id generator makes version 4 UUIDs.
    struct ParallelAndIDTests {
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

        @Test func randomIDsAreDistinctLowerCaseVersion4UUIDs() {
            let hex = Set("0123456789abcdef")
            var seen = Set<String>()
            for _ in 0..<2000 {
                let id = Context.randomID()
                let groups = id.split(separator: "-", omittingEmptySubsequences: false)
                #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(id)")
                #expect(id.allSatisfy { $0 == "-" || hex.contains($0) }, "\(id)")
                #expect(groups.count == 5 && groups[2].first == "4", "version 4: \(id)")
                #expect(groups.count == 5 && "89ab".contains(groups[3].first ?? "x"), "RFC 9562 variant: \(id)")
                seen.insert(id)
            }
            #expect(seen.count == 2000)
        }
    }
}
