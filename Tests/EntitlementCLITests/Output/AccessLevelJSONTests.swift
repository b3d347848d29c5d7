import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// An access level's JSON object says what the engine decided (in a grace period, active),
    /// and its streamed members are that object.
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

        /// The members `check --json` and `status --json` stream into their objects
        /// (`writeMembers`) are the access level's object, byte for byte.
        @Test func accessLevelMembersMatchItsObject() {
            var random = SplitMix64(seed: 5)
            for _ in 0..<300 {
                let profile = ProfileGenerator.profile(&random)
                let date = ProfileGenerator.instant(&random)
                let engine = StatusEngine(configuration: UnitTests.Fixture.configuration)
                for id in engine.entitlementIDs(for: profile) {
                    let level = engine.evaluate(id, for: profile, at: date).accessLevel
                    var object = level.json
                    object["customer_user_id"] = .string("u")
                    object["evaluated_at"] = .string(ISODate.format(date))
                    object["profile_id"] = .null
                    var out = JSONStream(style: .compact)
                    out.beginObject()
                    level.writeMembers(into: &out, customerUserID: "u", evaluatedAt: date, profileID: .some(nil))
                    out.endObject()
                    #expect(out.bytes == JSONWriter(style: .compact).bytes(.object(object)))
                }
            }
        }
    }
}
