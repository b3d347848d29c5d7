import FoundationEssentials
import EntitlementBasics

/// The vendors' date forms (docs/import.md section 6.1). ISO 8601 strings
/// (RevenueCat, Adapty) go through `ISODate.parse`; these are the numeric ones.
package enum VendorDate {
    /// Apple: milliseconds since 1970, or nil outside `ISODate.writableRange`.
    ///
    /// A fraction of a millisecond (Xcode's StoreKit testing signs `1697679936049.7297`)
    /// is dropped, as Apple's own libraries read the value as a whole millisecond. The range
    /// is checked before any integer arithmetic, so no value can overflow.
    package static func fromEpochMilliseconds(_ milliseconds: Double) -> Date? {
        guard milliseconds.isFinite else { return nil }
        let whole = milliseconds.rounded(.down)
        guard whole >= ISODate.firstInstant * 1000, whole <= ISODate.lastInstant * 1000 else { return nil }
        let exact = Int(whole)
        let seconds = exact >= 0 ? exact / 1000 : (exact - 999) / 1000
        return Date(timeIntervalSince1970: Double(seconds) + Double(exact - seconds * 1000) / 1000)
    }

    /// Qonversion: seconds since 1970, fractions allowed; nil outside `ISODate.writableRange`.
    static func fromEpochSeconds(_ seconds: Double) -> Date? {
        guard seconds.isFinite else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        return ISODate.writableRange.contains(date) ? date : nil
    }

    /// A date as it appears inside a synthesized id: `2026-03-01T09:00:00Z` (section 6.4).
    static func idText(_ date: Date) -> String { ISODate.format(date) }
}
