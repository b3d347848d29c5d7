import Foundation
import Testing

/// One command example found in README.md or docs/*.md: where it is, how it is to be run,
/// and the commands with the output the page shows for each (CONTRIBUTING.md, "Docs that run").
struct DocBlock: CustomTestStringConvertible, Sendable {
    /// What the test does with a block.
    enum Kind: Sendable {
        /// A ```console block: run and compared.
        case run
        /// A block marked `<!-- not run: reason -->`: counted, not run.
        case notRun(reason: String)
        /// A command example that is neither: the test fails and says why.
        case unmarked(problem: String)
    }

    /// One `$ ` line (with its continuation lines) and the output lines shown after it.
    struct Command: Sendable {
        var line: Int
        var text: String
        var expected: [String]
    }

    var file: String
    var line: Int
    var kind: Kind
    /// `NAME=VALUE` words of the block's `<!-- doc-test: … -->` comment.
    var environment: [String: String] = [:]
    /// `cwd=DIR` of the comment: where the commands run, inside the block's copy of the repository's files.
    var workingDirectory = "."
    /// `$ ` lines inside the comment: run first, their output not shown (each must exit 0).
    var setup: [Command] = []
    var commands: [Command] = []

    var testDescription: String { "\(file):\(line)" }

    var isRun: Bool { if case .run = kind { true } else { false } }
    var isMarked: Bool { if case .notRun = kind { true } else { false } }
}
