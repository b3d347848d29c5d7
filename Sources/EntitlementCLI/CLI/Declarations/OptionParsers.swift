import FoundationEssentials
import EntitlementBasics

/// The value parsers options are declared with; each refusal says what is expected.
extension Option {
    /// Non-empty text; `kind` says what it names.
    static func text(_ name: String, value: String, kind: ValueKind = .text, help: String) -> Option<String> {
        Option<String>(name, value: value, kind: kind, help: help) { (text, source) throws(ValueProblem) in
            guard !text.trimmingWhitespace.isEmpty else { throw ValueProblem("option '--\(name)' needs a non-empty value.") }
            _ = source
            return text
        }
    }

    /// Any non-empty value, kept as given (paths, ids looked up byte for byte).
    static func string(_ name: String, value: String, kind: ValueKind, repeatable: Bool = false, help: String) -> Option<String> {
        Option<String>(name, value: value, kind: kind, repeatable: repeatable, help: help) { (text, _) throws(ValueProblem) in text }
    }

    /// An ISO 8601 date or instant, or one relative to the start of the run (`RelativeDate`).
    static func date(_ name: String, help: String) -> Option<Date> {
        var option = Option<Date>(name, value: "DATE", kind: .date, help: help) { (text, _) throws(ValueProblem) in
            guard let date = ISODate.parse(text) else {
                throw ValueProblem("invalid date for --\(name): '\(Terminal.escape(text))'.",
                                   hint: "Use ISO 8601 (2026-01-15T12:00:00Z, 2026-01-15T13:00:00+01:00, 2026-01-15), now, today, yesterday, tomorrow, or an offset such as -3d, +2w, -1m, +1y, -12h.")
            }
            return date
        }
        option.parseRelative = { text, now in RelativeDate.resolve(text, now: now) }
        return option
    }

    /// Seconds, 0 or more.
    static func seconds(_ name: String, help: String) -> Option<Double> {
        Option<Double>(name, value: "SECONDS", kind: .seconds, help: help) { (text, source) throws(ValueProblem) in
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'; expected seconds, 0 or more.")
            }
            return seconds
        }
    }

    /// A whole number above 0.
    static func count(_ name: String, value: String, help: String) -> Option<Int> {
        Option<Int>(name, value: value, kind: .count, help: help) { (text, source) throws(ValueProblem) in
            guard let count = Int(text), count > 0 else {
                throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'; expected a whole number above 0.")
            }
            return count
        }
    }
}

extension Option where Value: RawRepresentable<String> & CaseIterable {
    /// One of a fixed list of choices (all the cases, or `among`), with "Did you mean …?" for a near miss.
    /// `among` is optional rather than defaulted to `Array(Value.allCases)`: that array's generic
    /// metadata is made at start-up for every command, `check` included (2% of its instructions).
    static func choice(_ name: String, value: String, among choices: [Value]? = nil, help: String) -> Option<Value> {
        let names = choices?.map(\.rawValue) ?? Value.allCases.map(\.rawValue)
        let restricted = choices != nil
        return Option(name, value: value, kind: .choice(names), help: help) { (text, source) throws(ValueProblem) in
            if let choice = Value(rawValue: text), !restricted || names.contains(text) { return choice }
            let suggestion = Suggestion.closest(to: text, in: names).map { " Did you mean '\($0)'?" } ?? ""
            let expected = names.count > 1 ? "\(names.dropLast().joined(separator: ", ")) or \(names.last!)" : names.joined()
            throw ValueProblem("invalid \(source.phrase): '\(Terminal.escape(text))'; expected \(expected).\(suggestion)")
        }
    }
}
