import Foundation

/// What `ArchitectureMapTests` reads: the targets of `Package.swift`, the graph block of
/// ARCHITECTURE.md, and the file names a module's README gives. Plain text parsing:
/// `Package.swift` keeps one shape (`.target(name: "X", dependencies: ["A", "B"], …)`).
enum ArchitectureMap {
    /// One target and the names it depends on, in the order written.
    struct Target: Equatable {
        var name: String
        var dependencies: [String]
    }

    /// The targets of the package's sources, in the order `text` declares them: library,
    /// executable and system-library targets; test targets and targets whose `path` is under
    /// `Tests/` (test support) are left out.
    /// With `includingTests`, test targets and the test support are kept too.
    static func manifestTargets(_ text: String, includingTests: Bool = false) -> [Target] {
        let code = withoutComments(text)
        let kinds = [".target(", ".executableTarget(", ".systemLibrary(", ".testTarget("]
        var starts: [(index: String.Index, kind: String)] = []
        var search = code.startIndex
        while search < code.endIndex {
            let found = kinds.compactMap { kind in code.range(of: kind, range: search..<code.endIndex).map { ($0.lowerBound, kind) } }
            guard let first = found.min(by: { $0.0 < $1.0 }) else { break }
            starts.append((first.0, first.1))
            search = code.index(after: first.0)
        }
        var targets: [Target] = []
        var consumedUpTo = code.startIndex
        for (position, start) in starts.enumerated() where start.index >= consumedUpTo {
            let end = position + 1 < starts.count ? starts[position + 1].index : code.endIndex
            var segment = code[start.index..<end]
            guard let name = quoted(in: segment.drop(while: { $0 != "\"" })).first else { continue }
            var dependencies: [String] = []
            if let label = segment.range(of: "dependencies:"), let open = segment[label.upperBound...].firstIndex(of: "[") {
                let close = matchingBracket(in: code, from: open)
                dependencies = quoted(in: code[code.index(after: open)..<close])
                consumedUpTo = close
                segment = code[start.index..<max(end, close)]
            }
            if !includingTests, start.kind == ".testTarget(" || segment.contains("path: \"Tests/") { continue }
            targets.append(Target(name: name, dependencies: dependencies))
        }
        return targets
    }

    /// The lines of the fenced block after the `<!-- package graph` comment: `Name: A, B`.
    /// Nil when the page has no such block.
    static func graphBlock(_ markdown: String) -> [Target]? {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let marker = lines.firstIndex(where: { $0.hasPrefix("<!-- package graph") }),
              marker + 1 < lines.count, lines[marker + 1].hasPrefix("```") else { return nil }
        var targets: [Target] = []
        for line in lines[(marker + 2)...] {
            if line.hasPrefix("```") { return targets }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let dependencies = line[line.index(after: colon)...].split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            targets.append(Target(name: line[..<colon].trimmingCharacters(in: .whitespaces), dependencies: dependencies))
        }
        return nil
    }

    /// Every name in backticks that ends in `.swift` (a path, possibly with `*`).
    static func swiftNames(_ markdown: String) -> [String] {
        backticked(markdown).filter { $0.hasSuffix(".swift") }
    }

    /// The words of `markdown` between single backticks, without white space inside.
    static func backticked(_ markdown: String) -> [String] {
        var names: [String] = []
        var rest = markdown[...]
        while let open = rest.firstIndex(of: "`") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("`") { rest = after.drop { $0 == "`" }; continue }  // a fence or ``…``
            guard let close = after.firstIndex(of: "`") else { break }
            let word = after[..<close]
            if !word.isEmpty, !word.contains(where: \.isWhitespace) { names.append(String(word)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// `path` matches `pattern` component by component; `*` matches any run of characters
    /// within one component.
    static func matches(_ path: String, pattern: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let patterns = pattern.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == patterns.count else { return false }
        return zip(parts, patterns).allSatisfy { wildcard(Array($0.0), Array($0.1)) }
    }

    private static func wildcard(_ text: [Character], _ pattern: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            return (0...text.count).contains { wildcard(Array(text[$0...]), Array(pattern.dropFirst())) }
        }
        return text.first == first && wildcard(Array(text.dropFirst()), Array(pattern.dropFirst()))
    }

    /// The Swift files under `folder`, as paths relative to it, sorted.
    static func swiftFiles(under folder: String) -> [String] {
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    private static func quoted(in text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private static func matchingBracket(in text: String, from open: String.Index) -> String.Index {
        var depth = 0
        var index = open
        while index < text.endIndex {
            if text[index] == "[" { depth += 1 }
            if text[index] == "]" { depth -= 1; if depth == 0 { return index } }
            index = text.index(after: index)
        }
        return text.endIndex
    }

    /// `text` without `//` comments (a `//` inside a string literal stays).
    private static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            var inString = false
            var previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if character == "\"" { inString.toggle() }
                if !inString, character == "/", previous == "/" { return line[..<line.index(before: index)] }
                previous = character
            }
            return line
        }.joined(separator: "\n")
    }
}
