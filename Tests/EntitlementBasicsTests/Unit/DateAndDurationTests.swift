import Foundation
import Testing
@testable import EntitlementBasics
import EntitlementTestSupport

extension UnitTests {
    /// `ISODate` parsing and formatting, and calendar-month arithmetic.
    struct DateAndDurationTests {
        /// 2026-01-15T12:00:00Z, computed independently of the code under test.
        static let noonUTC: TimeInterval = 1_768_478_400

        // MARK: ISODate.parse

        @Test(arguments: [
            ("2026-01-15T12:00:00Z", 0.0), ("2026-01-15T12:00:00z", 0), ("2026-01-15t12:00:00Z", 0), ("2026-01-15 12:00:00Z", 0),
            ("2026-01-15T13:00:00+01:00", 0), ("2026-01-15T13:00:00+0100", 0), ("2026-01-15T07:30:00-04:30", 0),
            ("2026-01-15T07:30:00-0430", 0), ("2026-01-15T12:00:00+00:00", 0), ("2026-01-15T12:00:00-0000", 0),
            ("2026-01-16T11:59:00+23:59", 0),
            ("2026-01-15T12:00:00.5Z", 0.5), ("2026-01-15T12:00:00,5Z", 0.5), ("2026-01-15T12:00:00.12Z", 0.12),
            ("2026-01-15T12:00:00.123Z", 0.123), ("2026-01-15T12:00:00.1234Z", 0.1234), ("2026-01-15T12:00:00.12345Z", 0.12345),
            ("2026-01-15T12:00:00.123456Z", 0.123456), ("2026-01-15T12:00:00.1234567Z", 0.1234567),
            ("2026-01-15T12:00:00.12345678Z", 0.12345678), ("2026-01-15T12:00:00.123456789Z", 0.123456789),
            ("2026-01-15T12:00:00.000000001Z", 0.000000001), ("2026-01-15T13:00:00.250+01:00", 0.25),
            ("2026-01-15", -12 * 3600),
        ] as [(String, TimeInterval)])
        func acceptedForms(text: String, offsetFromNoon: TimeInterval) throws {
            let date = try #require(ISODate.parse(text))
            #expect(abs(date.timeIntervalSince1970 - (Self.noonUTC + offsetFromNoon)) < 1e-6)
        }

        @Test(arguments: [
            ("1970-01-01T00:00:00Z", 0.0), ("1970-01-01", 0), ("2020-01-15T15:10:36.517975+0000", 1_579_101_036.517975),
            ("2024-02-29", 1_709_164_800), ("2000-02-29T00:00:00Z", 951_782_400), ("1969-12-31T23:59:59Z", -1),
        ] as [(String, TimeInterval)])
        func knownInstants(text: String, seconds: TimeInterval) throws {
            #expect(abs(try #require(ISODate.parse(text)).timeIntervalSince1970 - seconds) < 1e-6)
        }

        @Test(arguments: [
            "2026-13-01", "2026-00-10", "2026-01-00", "2026-01-32", "2026-04-31", "2026-02-29", "2026-02-30", "1900-02-29",
            "2026-01-15T12:00:00", "2026-01-15T12:00:00.123", "2026-01-15T12:00:00.1234567890Z", "2026-01-15T12:00:00.Z",
            "2026-01-15T24:00:00Z", "2026-01-15T12:60:00Z", "2026-01-15T12:00:61Z", "2026-01-15T12:00Z", "2026-01-15T12Z",
            "2026-1-15", "26-01-15", "20260115", "2026/01/15", "", "2026-01-15T", "2026-01-15X", " 2026-01-15", "2026-01-15 ",
            "2026-01-15T12:00:00Z ", "2026-01-15T12:00:00+01", "2026-01-15T12:00:00+1:00", "2026-01-15T12:00:00+24:00",
            "2026-01-15T12:00:00+01:60", "2026-01-15T12:00:00+01:00Z", "2026-01-15T12:00:00 +01:00", "2026-01-15T12:00:00UTC",
            "２０２６-01-15", "yesterday", "10000-01-01",
        ])
        func rejectedForms(text: String) {
            #expect(ISODate.parse(text) == nil)
        }

        // MARK: ISODate.format

        @Test(arguments: [
            (0.0, "2026-01-15T12:00:00Z"), (0.25, "2026-01-15T12:00:00.250Z"), (0.001, "2026-01-15T12:00:00.001Z"),
            (0.517975, "2026-01-15T12:00:00.517975Z"), (0.000001, "2026-01-15T12:00:00.000001Z"), (0.1234564, "2026-01-15T12:00:00.123456Z"),
            (0.9999996, "2026-01-15T12:00:01Z"), (-12 * 3600, "2026-01-15T00:00:00Z"), (86_399, "2026-01-16T11:59:59Z"),
        ] as [(TimeInterval, String)])
        func formatWritesUTCWithAFractionOnlyWhenNeeded(offsetFromNoon: TimeInterval, expected: String) {
            #expect(ISODate.format(Date(timeIntervalSince1970: Self.noonUTC + offsetFromNoon)) == expected)
        }

        @Test(arguments: [(0.0, "1970-01-01T00:00:00Z"), (-0.5, "1969-12-31T23:59:59.500Z"), (951_782_400, "2000-02-29T00:00:00Z"),
                          (253_402_300_799, "9999-12-31T23:59:59Z")] as [(TimeInterval, String)])
        func formatKnownInstants(seconds: TimeInterval, expected: String) {
            #expect(ISODate.format(Date(timeIntervalSince1970: seconds)) == expected)
        }

        @Test(arguments: ["2026-01-15T13:00:00+01:00", "2020-01-15T15:10:36.517975+0000", "2024-02-29", "1999-12-31T23:59:59.999-08:00",
                          "2026-07-04T00:00:00.5Z", "9999-12-31T23:59:59Z"])
        func formatThenParseKeepsTheInstant(text: String) throws {
            let date = try #require(ISODate.parse(text))
            let again = try #require(ISODate.parse(ISODate.format(date)))
            #expect(abs(again.timeIntervalSince(date)) < 1e-6)
            #expect(ISODate.format(date).hasSuffix("Z"))
        }

        // MARK: CivilDate

        @Test(arguments: [
            ("2024-01-31T00:00:00Z", 1, "2024-02-29T00:00:00Z"),  // leap year: clamped to the 29th
            ("2026-01-31T00:00:00Z", 1, "2026-02-28T00:00:00Z"),  // non-leap year: clamped to the 28th
            ("2026-01-31T18:45:30.250Z", 1, "2026-02-28T18:45:30.250Z"),  // time of day kept
            ("2026-03-31T00:00:00Z", 1, "2026-04-30T00:00:00Z"),
            ("2026-12-15T08:00:00Z", 1, "2027-01-15T08:00:00Z"),  // December rolls into January of the next year
            ("2026-12-31T00:00:00Z", 2, "2027-02-28T00:00:00Z"),
            ("2026-11-30T00:00:00Z", 3, "2027-02-28T00:00:00Z"),
            ("2024-02-29T00:00:00Z", 12, "2025-02-28T00:00:00Z"),
            ("2024-02-29T00:00:00Z", 48, "2028-02-29T00:00:00Z"),
            ("2026-01-15T00:00:00Z", 0, "2026-01-15T00:00:00Z"),
            ("2026-01-15T00:00:00Z", -1, "2025-12-15T00:00:00Z"),
            ("2026-03-31T00:00:00Z", -1, "2026-02-28T00:00:00Z"),
            ("2026-01-15T00:00:00Z", 1200, "2126-01-15T00:00:00Z"),
            ("1969-12-31T23:00:00Z", 1, "1970-01-31T23:00:00Z"),
        ])
        func addingCalendarMonths(start: String, months: Int, expected: String) throws {
            let date = try #require(ISODate.parse(start))
            #expect(ISODate.format(CivilDate.adding(months: months, to: date)) == expected)
        }

        @Test func leapYearsAndMonthLengths() {
            #expect(CivilDate.isLeap(2024) && CivilDate.isLeap(2000) && CivilDate.isLeap(2400))
            #expect(!CivilDate.isLeap(2026) && !CivilDate.isLeap(1900) && !CivilDate.isLeap(2100))
            #expect((1...12).map { CivilDate.daysIn(month: $0, year: 2026) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
            #expect(CivilDate.daysIn(month: 2, year: 2024) == 29)
        }

        @Test func civilDaysRoundTrip() {
            #expect(CivilDate.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
            #expect(CivilDate.daysFromCivil(year: 2026, month: 1, day: 15) == 20_468)
            for days in stride(from: -800_000, through: 3_000_000, by: 997) {
                let civil = CivilDate.civilFromDays(days)
                #expect(CivilDate.daysFromCivil(year: civil.year, month: civil.month, day: civil.day) == days)
            }
        }
    }
}
