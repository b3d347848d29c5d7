import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Under `--json`, notes and warnings on standard error are JSON objects,
/// one per line, like errors.
@Suite(.tags(.cli))
struct JSONNotesTests {
    let directory = TemporaryDirectory()

    func objects(_ stderr: String) throws -> [JSONObject] {
        try stderr.split(separator: "\n").map { line in try #require(try JSONParser.parse(String(line)).objectValue) }
    }

    @Test func unknownEntitlementNoteIsAnObject() throws {
        let result = runCLI(["check", "lifetime", "premuim", "--store", demoStorePath, "--json"])
        #expect(result.exitCode == 1)
        #expect(try objects(result.stderr) == [JSONObject([("note", .string("entitlement 'premuim' is not in the product configuration. Did you mean 'premium'?"))])])
        let text = runCLI(["check", "lifetime", "premuim", "--store", demoStorePath])
        #expect(text.stderr == "Note: entitlement 'premuim' is not in the product configuration. Did you mean 'premium'?\n")
    }

    @Test(arguments: [["check", "--stdin", "premium", "--json"], ["check", "--stdin", "premium", "--output", "jsonl"],
                      ["--output", "json", "grant", "--stdin", "premium", "--lifetime"]])
    func emptyStdinNoteIsAnObject(_ arguments: [String]) throws {
        let store = directory.copyOfDemoStore()
        let result = runCLI(arguments + ["--store", store])
        #expect(result.exitCode == 1)
        let notes = try objects(result.stderr)
        #expect(notes.count == 1)
        #expect(notes.first?["note"]?.stringValue?.hasPrefix("no user ids on standard input") == true)
    }

    @Test func contextWritesOneObjectPerLine() throws {
        let stderr = OutputSink(capturingAsTerminal: false)
        var context = Context(environment: [:], stdout: OutputSink(capturingAsTerminal: false), stderr: stderr, stdin: InputSource(text: ""),
                              now: { demoDate }, loginName: nil)
        context.json = true
        context.note("a \"quoted\"\nnote")
        context.warning("w")
        context.quiet = true
        context.note("hidden")
        context.warning("kept")
        #expect(stderr.text == "{\"note\":\"a \\\"quoted\\\"\\nnote\"}\n{\"warning\":\"w\"}\n{\"warning\":\"kept\"}\n")
    }
}
