import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `GrantDuration.parse`: short forms, ISO 8601, RevenueCat names; and `added(to:)`.
    struct GrantDurationTests {
        typealias F = Fixture
        static let day = 86_400

        @Test(arguments: [
            ("12h", GrantDuration(seconds: 12 * 3600)), ("7d", GrantDuration(seconds: 7 * day)), ("2w", GrantDuration(seconds: 14 * day)),
            ("1m", GrantDuration(months: 1)), ("3m", GrantDuration(months: 3)), ("1y", GrantDuration(months: 12)),
            ("2y", GrantDuration(months: 24)), ("365d", GrantDuration(seconds: 365 * day)),
            ("P7D", GrantDuration(seconds: 7 * day)), ("P1M", GrantDuration(months: 1)), ("P1Y", GrantDuration(months: 12)),
            ("PT12H", GrantDuration(seconds: 12 * 3600)), ("P2W", GrantDuration(seconds: 14 * day)), ("PT30M", GrantDuration(seconds: 1800)),
            ("PT45S", GrantDuration(seconds: 45)), ("p1m", GrantDuration(months: 1)), ("pt1h", GrantDuration(seconds: 3600)),
            ("P1Y2M3DT4H5M6S", GrantDuration(months: 14, seconds: 3 * day + 4 * 3600 + 5 * 60 + 6)),
            ("P1MT1M", GrantDuration(months: 1, seconds: 60)),  // M is months before T, minutes after
        ])
        func shortAndISOForms(text: String, expected: GrantDuration) {
            #expect(GrantDuration.parse(text) == .some(.some(expected)))
        }

        @Test(arguments: [
            ("daily", GrantDuration(seconds: day)), ("three_day", GrantDuration(seconds: 3 * day)), ("weekly", GrantDuration(seconds: 7 * day)),
            ("two_week", GrantDuration(seconds: 14 * day)), ("monthly", GrantDuration(months: 1)), ("two_month", GrantDuration(months: 2)),
            ("three_month", GrantDuration(months: 3)), ("six_month", GrantDuration(months: 6)), ("yearly", GrantDuration(months: 12)),
        ])
        func revenueCatNames(text: String, expected: GrantDuration) {
            #expect(GrantDuration.parse(text) == .some(.some(expected)))
        }

        @Test func lifetimeIsSomeNil() {
            #expect(GrantDuration.parse("lifetime") == .some(nil))
            #expect(GrantDuration.named.map(\.0) == [
                "daily", "three_day", "weekly", "two_week", "monthly", "two_month", "three_month", "six_month", "yearly", "lifetime",
            ])
        }

        @Test(arguments: [
            "", "d", "0d", "-1d", "-7d", "7", "7D", "7M", "1.5d", "7 d", " 7d", "1x", "P", "PT", "P1DT", "P1H", "PT1D", "PT1W", "P1DT2",
            "P-1D", "P1.5D", "PD", "P1D2", "PTT1H", "P1000001D", "forever", "Monthly", "LIFETIME", "life", "1 month", "1mo",
        ])
        func unreadableDurations(text: String) {
            #expect(GrantDuration.parse(text) == nil)
        }

        @Test(arguments: ["P0D", "PT0S", "P0Y0M"])
        func zeroISODurationsParseButAreNotPositive(text: String) {
            let duration = GrantDuration.parse(text)
            #expect(duration == .some(.some(GrantDuration())))
            #expect(duration??.isPositive == false)
        }

        @Test func isPositive() {
            #expect(GrantDuration(months: 1).isPositive)
            #expect(GrantDuration(seconds: 1).isPositive)
            #expect(!GrantDuration().isPositive)
        }

        /// Amounts that would overflow `Int` once scaled are rejected, not a crash.
        @Test(arguments: ["9999999999999999h", "999999999999999999y", "99999999999999w", "999999999999999d", "1000001d", "P1000001D",
                          "P9999999999999999999Y", "99999999999999999999d"])
        func hugeAmountsAreRejected(text: String) {
            #expect(GrantDuration.parse(text) == nil)
        }

        @Test func largestAmountIsAccepted() {
            #expect(GrantDuration.parse("1000000h") == .some(.some(GrantDuration(seconds: 1_000_000 * 3600))))
            #expect(GrantDuration.parse("P1000000D") == .some(.some(GrantDuration(seconds: 1_000_000 * 86_400))))
        }

        // MARK: added(to:)

        @Test(arguments: [
            ("1m", "2026-01-31T10:00:00Z", "2026-02-28T10:00:00Z"),
            ("1m", "2024-01-31T10:00:00Z", "2024-02-29T10:00:00Z"),
            ("1y", "2024-02-29T00:00:00Z", "2025-02-28T00:00:00Z"),
            ("1m", "2026-12-15T00:00:00Z", "2027-01-15T00:00:00Z"),
            ("7d", "2026-03-25T12:00:00Z", "2026-04-01T12:00:00Z"),
            ("12h", "2026-01-15T18:00:00Z", "2026-01-16T06:00:00Z"),
            ("P1M1D", "2026-01-31T00:00:00Z", "2026-03-01T00:00:00Z"),  // months first, then the exact days
        ])
        func addedToADate(text: String, start: String, expected: String) throws {
            let duration = try #require(GrantDuration.parse(text) ?? nil)
            #expect(ISODate.format(duration.added(to: F.date(start))) == expected)
        }
    }
}
