import Testing
@testable import EntitlementBasics
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// The work, counted, of one profile of thousands of entitlements (`status`, `find`,
    /// `summary`), whose cost grew as entitlements × transactions. Each size is 4× the last;
    /// a step under 6× is n log n, where the old code took 16× (`WorkGrowth`; import's
    /// shapes: `ManyEntitlementsImportWorkTests`).
    struct ManyEntitlementsWorkTests {
        typealias W = WorkGrowth

        @Test func statusFindAndSummaryOfManyEntitlements() {
            W.expectNLogN(W.counters { size, counter in
                let (configuration, profile) = W.manyEntitlements(size)
                var engine = StatusEngine(configuration: configuration)
                engine.counter = counter
                #expect(engine.accessLevels(for: profile, at: W.at).allSatisfy { $0.state == .active })
                #expect(FindQuery().matches(profile, engine: engine, at: W.at).count == size)
                var summary = StoreSummary()
                summary.add(profile, engine: engine, at: W.at)
                #expect(summary.count("e0", .active) == 1)
            }.map(\.steps))
        }
    }
}
