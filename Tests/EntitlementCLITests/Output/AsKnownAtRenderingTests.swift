import Testing
@testable import EntitlementCLI
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// What `status` prints "as known at T" (`AsKnownAtTests` holds the engine's answers):
    /// the explanation names a record made after T as ignored, and the header shows nothing
    /// recorded after T.
    struct AsKnownAtRenderingTests {
        typealias F = Fixture

        @Test func theExplanationNamesALaterRenewalAsIgnored() {
            let evaluation = F.engine.evaluate("premium", for: F.profile(F.monthlyRenewals), at: F.date("2025-02-15T00:00:00Z"))
            #expect(ExplanationRenderer.text(evaluation, at: F.date("2025-02-15T00:00:00Z"), style: Style(enabled: false))
                .contains("ignored: purchase c3 recorded 2025-03-01T00:00:00Z, after the evaluation time"))
        }

        @Test func theStatusHeaderDoesNotShowTheFuture() {
            var profile = F.profile(F.monthlyRenewals)
            profile.createdAt = F.date("2028-01-01T00:00:00Z")
            let text = ProfileText.render(profile, engine: F.engine, at: F.date("2025-02-15T00:00:00Z"), explain: false, style: Style(enabled: false))
            #expect(!text.contains("2028") && !text.contains("in 2 years"))
            #expect(text.contains("transactions  2"))
        }
    }
}
