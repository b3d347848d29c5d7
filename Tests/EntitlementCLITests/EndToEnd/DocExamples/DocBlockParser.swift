import Foundation

/// Finds the command examples of one Markdown page (CONTRIBUTING.md, "Docs that run").
///
/// A ```console block is run. The comment on the lines just above a fence decides how:
/// `<!-- doc-test: NAME=VALUE… cwd=DIR` (then hidden `$ ` set-up lines) `-->`, or
/// `<!-- not run: reason -->`. Any other fenced block that holds a `$ ` line, or a
/// ```sh, ```bash or bare block with a line starting `entitlement `, must be marked.
enum DocBlockParser {
    static func blocks(in text: String, file: String) -> [DocBlock] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [DocBlock] = []
        var comment: (text: [String], line: Int)?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!--") {
                var body = [trimmed]
                let start = index
                while !(body.last ?? "").contains("-->"), index + 1 < lines.count {
                    index += 1
                    body.append(lines[index].trimmingCharacters(in: .whitespaces))
                }
                comment = (body, start + 1)
                index += 1
                continue
            }
            guard let fence = fence(line) else {
                if !trimmed.isEmpty { comment = nil }
                index += 1
                continue
            }
            let fenceLine = index + 1
            var content: [String] = []
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                content.append(String(lines[index].dropFirst(min(fence.indent, leadingSpaces(lines[index])))))
                index += 1
            }
            index += 1
            var block = DocBlock(file: file, line: fenceLine, kind: .run)
            block = classify(block, language: fence.language, content: content, comment: comment?.text)
            comment = nil
            if block.isRun, block.commands.last?.expected.isEmpty == true, let json = followingJSON(lines, from: &index) {
                block.commands[block.commands.count - 1].expected = json
            }
            if block.isRun || block.isMarked || isCommandExample(language: fence.language, content: content) {
                blocks.append(block)
            }
        }
        return blocks
    }

    private static func fence(_ line: String) -> (indent: Int, language: String)? {
        let indent = leadingSpaces(line)
        let rest = line.dropFirst(indent)
        guard rest.hasPrefix("```") else { return nil }
        return (indent, String(rest.dropFirst(3)).trimmingCharacters(in: .whitespaces))
    }

    private static func leadingSpaces(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    private static func isCommandExample(language: String, content: [String]) -> Bool {
        if content.contains(where: { $0.hasPrefix("$ ") }) { return true }
        return ["sh", "bash", "shell", ""].contains(language) && content.contains { $0.hasPrefix("entitlement ") }
    }

    private static func classify(_ block: DocBlock, language: String, content: [String], comment: [String]?) -> DocBlock {
        var block = block
        if let first = comment?.first, first.hasPrefix("<!-- not run:") {
            let reason = first.dropFirst("<!-- not run:".count).replacingOccurrences(of: "-->", with: "")
            block.kind = .notRun(reason: reason.trimmingCharacters(in: .whitespaces))
            return block
        }
        guard language == "console" else {
            block.kind = .unmarked(problem: "a command example in a ```\(language) block: make it a ```console block that runs, or mark it <!-- not run: reason -->")
            return block
        }
        if let comment, let first = comment.first, first.hasPrefix("<!-- doc-test:") {
            let words = first.dropFirst("<!-- doc-test:".count).replacingOccurrences(of: "-->", with: "").split(separator: " ")
            for word in words {
                let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[0] == "cwd" { block.workingDirectory = pair[1] } else { block.environment[pair[0]] = pair[1] }
            }
            block.setup = commands(Array(comment.dropFirst()).filter { $0 != "-->" }, firstLine: 0).map { var command = $0; command.expected = []; return command }
        }
        block.commands = commands(content, firstLine: block.line + 1)
        if block.commands.isEmpty { block.kind = .unmarked(problem: "a ```console block without a `$ ` line") }
        return block
    }

    /// `$ ` lines, a trailing ` \` continuing on the next line, and the lines up to the next `$ ` as output.
    private static func commands(_ content: [String], firstLine: Int) -> [DocBlock.Command] {
        var commands: [DocBlock.Command] = []
        var index = 0
        while index < content.count {
            let line = content[index]
            if line.hasPrefix("$ ") {
                var text = String(line.dropFirst(2))
                let start = index
                while text.hasSuffix("\\"), index + 1 < content.count {
                    index += 1
                    text += "\n" + content[index]
                }
                commands.append(.init(line: firstLine + start, text: text, expected: []))
            } else if !commands.isEmpty {
                commands[commands.count - 1].expected.append(line)
            }
            index += 1
        }
        return commands
    }

    /// A ```json block straight after the console block (blank lines between): the last command's output.
    private static func followingJSON(_ lines: [String], from index: inout Int) -> [String]? {
        var probe = index
        while probe < lines.count, lines[probe].trimmingCharacters(in: .whitespaces).isEmpty { probe += 1 }
        guard probe < lines.count, let fence = fence(lines[probe]), fence.language == "json" else { return nil }
        var json: [String] = []
        probe += 1
        while probe < lines.count, !lines[probe].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
            json.append(String(lines[probe].dropFirst(min(fence.indent, leadingSpaces(lines[probe])))))
            probe += 1
        }
        index = probe + 1
        return json
    }
}
