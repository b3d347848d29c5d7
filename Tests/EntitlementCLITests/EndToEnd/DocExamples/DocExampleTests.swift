import Foundation
import Testing
import EntitlementTestSupport

/// Every command example in README.md and docs/*.md runs against the built binary and prints
/// what the page shows; a command example that cannot run is marked so, with its reason
/// (CONTRIBUTING.md, "Docs that run").
@Suite(.tags(.endToEnd))
struct DocExampleTests {
    /// The pages whose examples run: README.md and docs/*.md.
    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static let blocks: [DocBlock] = pages.flatMap { page in
        let text = (try? String(contentsOfFile: repositoryRoot + "/" + page, encoding: .utf8)) ?? ""
        return DocBlockParser.blocks(in: text, file: page)
    }

    @Test func everyCommandExampleRunsOrIsMarked() {
        let run = Self.blocks.filter(\.isRun).count, marked = Self.blocks.filter(\.isMarked).count
        print("doc examples: \(run) run, \(marked) marked not run, in \(Self.pages.count) pages")
        #expect(run > 0, "no ```console block found")
        for block in Self.blocks {
            if case .unmarked(let problem) = block.kind { Issue.record("\(block.file):\(block.line): \(problem)") }
        }
    }

    @Test(.enabled(if: Binary.exists && programAvailable("bash"), "bash or the built binary is missing"), arguments: blocks.filter(\.isRun))
    func exampleRunsAsShown(_ block: DocBlock) throws {
        let result = try DocBlockRunner.run(block)
        for (command, outcome) in zip(block.setup, result.setup) where outcome.status != 0 {
            Issue.record("\(block.file):\(block.line): set-up `\(command.text)` exited \(outcome.status.map(String.init) ?? "before finishing"):\n\(outcome.output.joined(separator: "\n"))")
            return
        }
        for (command, outcome) in zip(block.commands, result.commands) {
            let where_ = "\(block.file):\(command.line): `$ \(command.text)`"
            guard let status = outcome.status else {
                Issue.record("\(where_) did not finish (killed after the time limit, or the shell exited):\n\(result.log)")
                return
            }
            #expect(status == 0, "\(where_) exited \(status); to show an exit status, end the line with `; echo \"exit $?\"`")
            let matched = DocOutputMatcher.matches(expected: command.expected, actual: outcome.output)
            #expect(matched, """
                \(where_) printed what the page does not show.
                --- shown
                \(DocOutputMatcher.normalized(command.expected).joined(separator: "\n"))
                --- printed
                \(DocOutputMatcher.normalized(outcome.output).joined(separator: "\n"))
                """)
        }
    }
}

/// The harness itself: block syntax and output matching.
@Suite(.tags(.unit))
struct DocExampleSyntaxTests {
    @Test func wildcardsMatchWithinALineAndAcrossLines() {
        #expect(DocOutputMatcher.lineMatches("Granted premium until [..] UTC.", "Granted premium until 2026-12-22 02:06 UTC."))
        #expect(!DocOutputMatcher.lineMatches("Granted premium until [..] UTC.", "Granted sports until 2026-12-22 02:06 UTC."))
        #expect(DocOutputMatcher.lineMatches("a[..]b[..]c", "a-b-b-c"))
        #expect(!DocOutputMatcher.lineMatches("exit 1", "exit 12"))
        #expect(DocOutputMatcher.matches(expected: ["first", "...", "last"], actual: ["first", "x", "y", "last"]))
        #expect(DocOutputMatcher.matches(expected: ["first", "...", "last"], actual: ["first", "last"]))
        #expect(!DocOutputMatcher.matches(expected: ["first", "last"], actual: ["first", "x", "last"]))
        #expect(DocOutputMatcher.matches(expected: ["a  ", "", ""], actual: ["a"]))
        #expect(DocOutputMatcher.matches(expected: ["a,b"], actual: ["a,b\r"]))
        #expect(!DocOutputMatcher.matches(expected: ["a"], actual: ["a", "b"]))
    }

    @Test func blocksAreRunMarkedOrRefused() throws {
        let page = """
            <!-- doc-test: ENTITLEMENT_STORE=Fixtures/demo-store cwd=Fixtures
            $ cp -R demo-store copy
            -->
            ```console
            $ entitlement check trial \\
                --at 2026-01-15
            trial  premium  active
            $ echo done
            done
            ```

            <!-- not run: needs a web server -->
            ```console
            $ curl http://localhost/
            ```

            ```sh
            entitlement sync
            ```

            ```
            entitlement grant USER ENTITLEMENT
            ```

            ```text
            entitlement grant USER ENTITLEMENT
            ```

            ```console
            $ entitlement --version --json
            ```

            ```json
            {"version": "1"}
            ```
            """
        let blocks = DocBlockParser.blocks(in: page, file: "page.md")
        try #require(blocks.count == 5)
        #expect(blocks[0].isRun && blocks[0].line == 4)
        #expect(blocks[0].environment == ["ENTITLEMENT_STORE": "Fixtures/demo-store"] && blocks[0].workingDirectory == "Fixtures")
        #expect(blocks[0].setup.map(\.text) == ["cp -R demo-store copy"])
        #expect(blocks[0].commands.map(\.text) == ["entitlement check trial \\\n    --at 2026-01-15", "echo done"])
        #expect(blocks[0].commands.map(\.expected) == [["trial  premium  active"], ["done"]])
        #expect(blocks[0].commands.map(\.line) == [5, 8])
        #expect(blocks[1].isMarked)
        for index in [2, 3] { if case .unmarked = blocks[index].kind {} else { Issue.record("block \(index) should be refused") } }
        #expect(blocks[4].isRun && blocks[4].commands[0].expected == [#"{"version": "1"}"#])
    }
}
