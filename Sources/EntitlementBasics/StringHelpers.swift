/// Small string helpers, so the library needs only FoundationEssentials (a smaller,
/// faster-starting binary than full Foundation with ICU).
extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, newlines).
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[first...last])
        return result
    }

    /// The text padded with spaces to `width` characters (never cut).
    package func padded(to width: Int) -> String {
        count >= width ? String(self) : String(self) + String(repeating: " ", count: width - count)
    }
}

/// Path helpers for the store's own, always-absolute-or-relative POSIX paths.
package enum PathName {
    /// `a/b/c.json` → `a/b`; `c.json` → `.`.
    /// (Each finds the last `/` among the UTF-8 bytes: searching the `String` itself walks its
    /// Characters, and the journal takes apart several paths per file it writes.)
    package static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `a/b/c.json` → `a/b`; `c.json` → `` (for paths relative to a root).
    package static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// `a/b/c.json` → `c.json`.
    package static func base(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }
}

/// Seconds as people write them: `10`, `0.5`.
package func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds))" : "\(seconds)"
}

extension String {
    /// Zero-padded on the left to `width` characters (spool file names, octal escapes).
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
