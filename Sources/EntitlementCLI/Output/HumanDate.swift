import FoundationEssentials
import EntitlementBasics

/// Dates for people: `2026-02-03 14:22 UTC (in 19 days)`.
enum HumanDate {
    static func format(_ date: Date) -> String {
        let iso = ISODate.format(date)  // 2026-02-03T14:22:10Z or with a fraction
        let day = iso.prefix(10)
        let time = iso.dropFirst(11).prefix(5)
        return "\(day) \(time) UTC"
    }

    /// The date and a hint relative to `reference`.
    static func format(_ date: Date, relativeTo reference: Date) -> String {
        "\(format(date)) (\(relative(date, to: reference)))"
    }

    /// "in 9 days", "3 days ago", "now".
    static func relative(_ date: Date, to reference: Date) -> String {
        let seconds = date.timeIntervalSince(reference)
        let magnitude = abs(seconds)
        let amount: String
        switch magnitude {
        case ..<60: return seconds == 0 ? "now" : (seconds > 0 ? "in under a minute" : "under a minute ago")
        case ..<3600: amount = plural(Int(magnitude / 60), "minute")
        case ..<86_400: amount = plural(Int(magnitude / 3600), "hour")
        case ..<(86_400 * 60): amount = plural(Int(magnitude / 86_400), "day")
        case ..<(86_400 * 730): amount = plural(Int(magnitude / (86_400 * 30.44)), "month")
        default: amount = plural(Int(magnitude / (86_400 * 365.25)), "year")
        }
        return seconds > 0 ? "in \(amount)" : "\(amount) ago"
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}
