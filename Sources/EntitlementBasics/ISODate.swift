import FoundationEssentials

/// ISO 8601 dates as the store and the command line accept and write them.
///
/// Accepts `Z`, `±HH:MM` and `±HHMM` offsets, 0 to 9 fractional digits, and a bare
/// `YYYY-MM-DD` (midnight UTC). Writes UTC with `Z`, with milliseconds (or
/// microseconds) only when needed. Hand-written because Foundation's formatters
/// take neither nine digits nor `+0000` in one configuration, and cost start-up time.
@usableFromInline
package enum ISODate {
    /// 0001-01-01T00:00:00Z, the first instant with a four-digit year.
    package static let firstInstant = -62_135_596_800.0
    /// 9999-12-31T23:59:59Z: the last whole second of year 9999. A `Date` this far out
    /// holds only about 30 microseconds of precision, so a fraction of this last second
    /// could round into year 10000 and not be written back.
    package static let lastInstant = 253_402_300_799.0

    /// The dates the store can write and read back: every bound in the tool (parsing,
    /// vendor dates, grant ends) is this one range.
    package static let writableRange = Date(timeIntervalSince1970: firstInstant)...Date(timeIntervalSince1970: lastInstant)

    /// Parses `text`, or returns nil when it is not an accepted form.
    package static func parse(_ text: String) -> Date? {
        var text = text
        // Works on the string's own UTF-8 storage: no copy, no allocation.
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses UTF-8 bytes; see `parse(_:)`.
    @usableFromInline
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // The form the tool writes for whole seconds (nearly every date in a store) first;
        // anything else, including a malformed date of that length, takes the general path.
        if bytes.count == 20, let date = parseWritten(bytes) { return date }
        return parseAnyForm(utf8: bytes)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the 20 bytes `format` writes for a whole second; nil for
    /// anything else. `ISODateWrittenFormTests` checks that it agrees with `parseAnyForm` wherever it
    /// answers, over generated dates and damaged ones.
    @inline(__always)
    static func parseWritten(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count == 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "Z") else { return nil }
        // Each digit minus "0"; a byte that is not a digit wraps to 10 or more.
        @inline(__always) func d(_ i: Int) -> Int { Int(b[i] &- 0x30) }
        guard d(0) < 10, d(1) < 10, d(2) < 10, d(3) < 10, d(5) < 10, d(6) < 10, d(8) < 10, d(9) < 10,
              d(11) < 10, d(12) < 10, d(14) < 10, d(15) < 10, d(17) < 10, d(18) < 10 else { return nil }
        let year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3)
        let month = d(5) * 10 + d(6), day = d(8) * 10 + d(9)
        let hour = d(11) * 10 + d(12), minute = d(14) * 10 + d(15), second = d(17) * 10 + d(18)
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let seconds = CivilDate.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Every accepted form; see `parse(_:)`.
    static func parseAnyForm(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(bytes: bytes)
        guard let year = scanner.number(digits: 4), scanner.take("-"),
              let month = scanner.number(digits: 2), scanner.take("-"),
              let day = scanner.number(digits: 2),
              year >= 1, (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = CivilDate.daysFromCivil(year: year, month: month, day: day)
        if scanner.isAtEnd { return Date(timeIntervalSince1970: Double(days) * 86_400) }
        guard scanner.take("T") || scanner.take("t") || scanner.take(" "),
              let hour = scanner.number(digits: 2), scanner.take(":"),
              let minute = scanner.number(digits: 2), scanner.take(":"),
              let second = scanner.number(digits: 2),
              hour < 24, minute < 60, second < 60  // no leap seconds: 23:59:60 is refused, not rolled over
        else { return nil }
        var nanoseconds = 0
        if scanner.take(".") || scanner.take(",") {
            var digits = 0
            while let byte = scanner.peek(), byte >= 0x30, byte <= 0x39 {
                guard digits < 9 else { return nil }
                nanoseconds = nanoseconds * 10 + Int(byte - 0x30)
                digits += 1
                scanner.index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanoseconds *= 10 }
        }
        var offsetSeconds = 0
        if scanner.take("Z") || scanner.take("z") {
            // UTC
        } else if let sign = scanner.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.index += 1
            guard let offsetHours = scanner.number(digits: 2) else { return nil }
            _ = scanner.take(":")
            guard let offsetMinutes = scanner.number(digits: 2), offsetHours < 24, offsetMinutes < 60 else { return nil }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        let interval = Double(seconds) + Double(nanoseconds) / 1e9
        // Only instants the tool can write back: years 0001 to 9999 in UTC.
        guard interval >= firstInstant, interval <= lastInstant else { return nil }
        return Date(timeIntervalSince1970: interval)
    }

    /// `2026-01-15T12:00:00Z`, or `…:00.250Z` when the date has a fraction.
    package static func format(_ date: Date) -> String {
        let parts = Parts(date)
        guard (0...9999).contains(parts.civil.year) else {
            return slowFormat(civil: parts.civil, secondOfDay: parts.secondOfDay, micros: parts.micros)
        }
        // Four-digit years (all real dates): write the bytes straight into the string.
        return String(unsafeUninitializedCapacity: parts.length) { parts.write(into: $0) }
    }

    /// Appends `format(date)`'s UTF-8 to `sink`, written in place for real dates.
    @usableFromInline
    package static func append(_ date: Date, to sink: ByteSink) {
        let parts = Parts(date)
        guard (0...9999).contains(parts.civil.year) else {
            var text = slowFormat(civil: parts.civil, secondOfDay: parts.secondOfDay, micros: parts.micros)
            text.withUTF8 { sink.append($0) }
            return
        }
        sink.write(atMost: 27) { parts.write(into: $0) }
    }

    /// A date split into what `format` writes.
    private struct Parts {
        var civil: (year: Int, month: Int, day: Int)
        var secondOfDay: Int
        var micros: Int

        init(_ date: Date) {
            let interval = date.timeIntervalSince1970
            var seconds = Int(interval.rounded(.down))
            var micros = Int(((interval - Double(seconds)) * 1_000_000).rounded())
            if micros >= 1_000_000 { seconds += 1; micros -= 1_000_000 }
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            secondOfDay = seconds - days * 86_400
            civil = CivilDate.civilFromDays(days)
            self.micros = micros
        }

        var fraction: Int { micros == 0 ? 0 : micros % 1000 == 0 ? 4 : 7 }
        var length: Int { 20 + fraction }

        /// Writes a four-digit-year date; returns the byte count (20 to 27).
        func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var at = 0
            func put(_ value: Int, _ width: Int) {
                var value = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[at + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                at += width
            }
            func put(_ character: Unicode.Scalar) {
                buffer[at] = UInt8(character.value)
                at += 1
            }
            put(civil.year, 4); put("-"); put(civil.month, 2); put("-"); put(civil.day, 2)
            put("T"); put(secondOfDay / 3600, 2); put(":"); put(secondOfDay / 60 % 60, 2); put(":"); put(secondOfDay % 60, 2)
            if fraction == 4 { put("."); put(micros / 1000, 3) } else if fraction == 7 { put("."); put(micros, 6) }
            put("Z")
            return at
        }
    }

    /// The general form, for years outside 0...9999.
    private static func slowFormat(civil: (year: Int, month: Int, day: Int), secondOfDay: Int, micros: Int) -> String {
        var text = pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros != 0 {
            text += micros % 1000 == 0 ? "." + pad(micros / 1000, 3) : "." + pad(micros, 6)
        }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A cursor over the bytes of a date.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func number(digits: Int) -> Int? {
            guard bytes.count - index >= digits else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                index += 1
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
    }
}

/// Proleptic Gregorian calendar arithmetic in UTC (Howard Hinnant's algorithms).
package enum CivilDate {
    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `date` moved by whole calendar months in UTC; the day is clamped to the
    /// month's length (Jan 31 + 1 month = Feb 28 or 29), the time of day kept.
    package static func adding(months: Int, to date: Date) -> Date {
        let interval = date.timeIntervalSince1970
        let days = Int((interval / 86_400).rounded(.down))
        let timeOfDay = interval - Double(days) * 86_400
        let civil = civilFromDays(days)
        let monthIndex = civil.year * 12 + (civil.month - 1) + months
        let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let month = monthIndex - year * 12 + 1
        let day = min(civil.day, daysIn(month: month, year: year))
        return Date(timeIntervalSince1970: Double(daysFromCivil(year: year, month: month, day: day)) * 86_400 + timeOfDay)
    }
}
