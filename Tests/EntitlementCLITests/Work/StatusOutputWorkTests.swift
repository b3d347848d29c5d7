import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// What `status` prints of a profile of thousands of entitlements (JSON and table),
    /// counted (never timed). Each size is 4× the last; a step under 6× is n log n, where
    /// the old code took 16× (`WorkGrowth`; the engine's part: `ManyEntitlementsWorkTests`).
    struct StatusOutputWorkTests {
        typealias W = WorkGrowth

        /// `status --json` and `status` of the profile a 4,000-entitlement import leaves.
        @Test func statusOutputOfManyEntitlements() {
            W.expectNLogN(W.counters { size, counter in
                let (configuration, profile) = W.manyEntitlements(size)
                var engine = StatusEngine(configuration: configuration)
                engine.counter = counter
                let sink = ByteSink()
                ProfileJSON.render(profile, engine: engine, at: W.at, explain: false, into: sink)
                #expect(sink.count > size * 100)
                let text = ProfileText.render(profile, engine: engine, at: W.at, explain: false, style: Style(enabled: false))
                #expect(text.contains("e\(size - 1)"))
            }.map(\.steps))
        }
    }
}
