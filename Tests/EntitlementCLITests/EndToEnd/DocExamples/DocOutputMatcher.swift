import FoundationEssentials
import Foundation
/// Compares what a command printed with the output a page shows (CONTRIBUTING.md, "Docs that run").
///
/// `[..]` in a shown line stands for any text within that line (a time, an id); a shown line
/// that is only `...` stands for any number of lines, none included. Trailing white space
/// (a CSV line's carriage return too) and trailing empty lines do not count.
enum DocOutputMatcher {
    static func matches(expected: [String], actual: [String]) -> Bool {
        match(normalized(expected)[...], normalized(actual)[...])
    }

    static func normalized(_ lines: [String]) -> [String] {
        var lines = lines.map { String($0.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    private static func match(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = expected.dropFirst()
            if rest.isEmpty { return true }
            for start in actual.indices + [actual.endIndex] where match(rest, actual[start...]) { return true }
            return false
        }
        guard let line = actual.first, lineMatches(first, line) else { return false }
        return match(expected.dropFirst(), actual.dropFirst())
    }

    /// One line against a pattern whose `[..]` match any text.
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let parts = pattern.components(separatedBy: "[..]")
        guard parts.count > 1 else { return pattern == line }
        guard line.hasPrefix(parts[0]) else { return false }
        var rest = Substring(line.dropFirst(parts[0].count))
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }
}
