import Foundation
import EntitlementBasics
import EntitlementCLI
import EntitlementTestSupport

/// Runs the CLI in-process with captured streams and a fixed clock.
/// `ids` numbers new ids (`id-1`, `id-2`, …) for golden files; by default they are random.
/// `terminal` makes stdin, stdout and stderr stand in for a person's terminal.
package func runCLI(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], now: Date = demoDate,
            newID: (@Sendable () -> String)? = nil, loginName: String? = "tester", terminal: Bool = false,
            ids: IDSequence? = nil, clock: (@Sendable () -> Date)? = nil, pacing: Pacing? = nil) -> CLIResult {
    let stdout = OutputSink(capturingAsTerminal: terminal)
    let stderr = OutputSink(capturingAsTerminal: terminal)
    let generator: @Sendable () -> String
    if let newID { generator = newID } else if let ids { generator = { ids.next() } } else { generator = Context.randomID }
    var context = Context(environment: environment, stdout: stdout, stderr: stderr, stdin: InputSource(text: stdin, isTerminal: terminal),
                          now: clock ?? { now }, newID: generator, loginName: loginName)
    if let pacing { context.pacing = pacing }
    let code = CLI(context: context).run(arguments)
    return CLIResult(stdout: stdout.text, stderr: stderr.text, exitCode: code)
}

/// Runs the CLI in-process on raw argument bytes, as `main.swift` does.
package func runCLI(rawArguments: [[UInt8]]) -> CLIResult {
    let stdout = OutputSink(capturingAsTerminal: false)
    let stderr = OutputSink(capturingAsTerminal: false)
    let context = Context(environment: [:], stdout: stdout, stderr: stderr, stdin: InputSource(text: ""), now: { demoDate }, loginName: "tester")
    let code = CLI(context: context).run(rawArguments: rawArguments)
    return CLIResult(stdout: stdout.text, stderr: stderr.text, exitCode: code)
}
