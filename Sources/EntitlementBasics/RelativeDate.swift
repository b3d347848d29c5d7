import FoundationEssentials

/// Dates as people type them, resolved once against the start of the run.
///
/// As GNU `date -d` reads them: `now` and `today` are the current instant, `yesterday` and
/// `tomorrow` are 24 hours either side. An offset is a sign, a whole number and a unit:
/// `h` hours, `d` days, `w` weeks, `m` calendar months, `y` calendar years (UTC), for
/// example `-3d`, `+2w`, `-1m`, `+1y`, `-12h`. For midnight, write the date (`2026-01-15`).
package enum RelativeDate {
    package static func resolve(_ text: String, now: Date) -> Date? {
        switch text.lowercased() {
        case "now", "today": return now
        case "yesterday": return now.addingTimeInterval(-86_400)
        case "tomorrow": return now.addingTimeInterval(86_400)
        default: break
        }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3, scalars[0] == "+" || scalars[0] == "-" else { return nil }
        let sign = scalars[0] == "-" ? -1 : 1
        let digits = scalars[1..<(scalars.count - 1)]
        guard digits.allSatisfy({ $0.properties.numericType == .decimal && $0.isASCII }), digits.count <= 7,
              let amount = Int(String(String.UnicodeScalarView(digits))) else { return nil }
        let value = sign * amount
        let date: Date
        switch scalars[scalars.count - 1] {
        case "h": date = now.addingTimeInterval(Double(value) * 3600)
        case "d": date = now.addingTimeInterval(Double(value) * 86_400)
        case "w": date = now.addingTimeInterval(Double(value) * 7 * 86_400)
        case "m": date = CivilDate.adding(months: value, to: now)
        case "y": date = CivilDate.adding(months: value * 12, to: now)
        default: return nil
        }
        // Only instants the tool can write back (years 0001 to 9999), as for ISO 8601 dates.
        return ISODate.writableRange.contains(date) ? date : nil
    }
}
