import FoundationEssentials
import EntitlementBasics

/// How long a manual grant lasts: calendar months plus exact seconds, or lifetime.
///
/// Months and years are calendar months and years in UTC (Jan 31 + 1 month is the
/// last day of February); days, weeks and hours are exact (86,400 s, 7 days, 3,600 s).
package struct GrantDuration: Equatable, Sendable {
    var months: Int
    package var seconds: Int

    package init(months: Int = 0, seconds: Int = 0) {
        self.months = months
        self.seconds = seconds
    }

    /// RevenueCat's promotional durations, by name.
    package static let named: [(String, GrantDuration?)] = [
        ("daily", GrantDuration(seconds: 86_400)), ("three_day", GrantDuration(seconds: 3 * 86_400)),
        ("weekly", GrantDuration(seconds: 7 * 86_400)), ("two_week", GrantDuration(seconds: 14 * 86_400)),
        ("monthly", GrantDuration(months: 1)), ("two_month", GrantDuration(months: 2)),
        ("three_month", GrantDuration(months: 3)), ("six_month", GrantDuration(months: 6)),
        ("yearly", GrantDuration(months: 12)), ("lifetime", nil),
    ]

    /// Parses `7d`, `2w`, `1m`, `1y`, `12h`, ISO 8601 (`P7D`, `P1M`, `PT12H`, `P1Y2M3DT4H5M6S`)
    /// or a RevenueCat name. Returns `.some(nil)` for lifetime, nil when unreadable.
    package static func parse(_ text: String) -> GrantDuration?? {
        if let entry = named.first(where: { $0.0 == text }) { return .some(entry.1) }
        if text.first == "P" || text.first == "p" { return parseISO(text.uppercased()).map { .some($0) } }
        guard let unit = text.last, let amount = Int(text.dropLast()), amount > 0, amount <= maximumAmount else { return nil }
        switch unit {
        case "h": return GrantDuration(seconds: amount * 3600)
        case "d": return GrantDuration(seconds: amount * 86_400)
        case "w": return GrantDuration(seconds: amount * 7 * 86_400)
        case "m": return GrantDuration(months: amount)
        case "y": return GrantDuration(months: amount * 12)
        default: return nil
        }
    }

    private static func parseISO(_ text: String) -> GrantDuration? {
        var duration = GrantDuration()
        var inTime = false
        var number = ""
        var sawComponent = false
        var sawTimeComponent = false
        // Each designator at most once, in ISO order: P1Y1Y and P1D1Y are refused.
        var lastOrder = -1
        for character in text.dropFirst() {
            if character.isASCII, character.isNumber { number.append(character); continue }
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard let value = Int(number), value <= maximumAmount else { return nil }
            guard let order = designatorOrder(character, inTime: inTime), order > lastOrder else { return nil }
            lastOrder = order
            number = ""
            sawComponent = true
            if inTime { sawTimeComponent = true }
            switch (character, inTime) {
            case ("Y", false): duration.months += value * 12
            case ("M", false): duration.months += value
            case ("W", false): duration.seconds += value * 7 * 86_400
            case ("D", false): duration.seconds += value * 86_400
            case ("H", true): duration.seconds += value * 3600
            case ("M", true): duration.seconds += value * 60
            case ("S", true): duration.seconds += value
            default: return nil
            }
        }
        guard number.isEmpty, sawComponent, !(inTime && !sawTimeComponent) else { return nil }
        return duration
    }

    /// The position of a designator in `PnYnMnWnDTnHnMnS`; nil if it is not one.
    private static func designatorOrder(_ character: Character, inTime: Bool) -> Int? {
        let order: [Character] = inTime ? ["H", "M", "S"] : ["Y", "M", "W", "D"]
        return order.firstIndex(of: character).map { inTime ? $0 + 4 : $0 }
    }

    /// The largest number one component may have (1,000,000 hours is 114 years);
    /// larger ones would overflow, and the grant's end must fit in four-digit years.
    static let maximumAmount = 1_000_000

    package var isPositive: Bool { months > 0 || seconds > 0 }

    /// `date` plus this duration: months on the UTC calendar, then the seconds.
    package func added(to date: Date) -> Date {
        CivilDate.adding(months: months, to: date).addingTimeInterval(Double(seconds))
    }
}
