import FoundationEssentials

/// The vendors' date forms (docs/import.md section 6.1). ISO 8601 strings
/// (RevenueCat, Adapty) go through `ISODate.parse`; these are the numeric ones.
enum VendorDate {
    /// Apple: milliseconds since 1970.
    static func fromEpochMilliseconds(_ milliseconds: Int) -> Date {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds - seconds * 1000) / 1000)
    }

    /// Qonversion: seconds since 1970, fractions allowed.
    static func fromEpochSeconds(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: seconds)
    }

    /// The dates the store can write and read back: years 0001 to 9999.
    static let range = ISODate.parse("0001-01-01T00:00:00Z")!...ISODate.parse("9999-12-31T23:59:59.999Z")!

    /// A date as it appears inside a synthesized id: `2026-03-01T09:00:00Z` (section 6.4).
    static func idText(_ date: Date) -> String { ISODate.format(date) }
}
