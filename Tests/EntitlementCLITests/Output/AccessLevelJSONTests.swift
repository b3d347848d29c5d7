import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// An access level's JSON object says what the engine decided: in a grace period, active.
    struct AccessLevelJSONTests {
        typealias F = Fixture

        @Test func aGracePeriodIsActiveInTheJSON() {
            let subscription = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let renewal = RenewalInfo(willRenew: true, billingIssueDetectedAt: F.date("2026-02-01T00:00:00Z"),
                                      gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))
            let level = F.level([subscription], renewals: ["t1": renewal], at: "2026-02-05T00:00:00Z")
            #expect(level.json["is_in_grace_period"] == .bool(true))
            #expect(level.json["is_active"] == .bool(true))
        }
    }
}
