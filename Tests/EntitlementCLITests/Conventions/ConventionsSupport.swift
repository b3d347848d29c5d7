import Foundation
import Testing
@testable import EntitlementCLI
import EntitlementTestSupport

/// Runs the CLI in-process as if standard output were a terminal `columns` wide.
func runCLIOnTerminal(_ arguments: [String], columns: Int?, environment: [String: String] = [:], now: Date = demoDate) -> CLIResult {
    let stdout = OutputSink(capturingAsTerminal: true)
    let stderr = OutputSink(capturingAsTerminal: false)
    var context = Context(environment: environment, stdout: stdout, stderr: stderr, stdin: InputSource(text: ""),
                          now: { now }, loginName: "tester")
    context.terminalColumns = columns
    let code = CLI(context: context).run(arguments)
    return CLIResult(stdout: stdout.text, stderr: stderr.text, exitCode: code)
}

/// Runs a program with arguments and optional standard input; output and exit status.
func runProgram(_ name: String, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitlement-program-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err"), inURL = directory.appendingPathComponent("in")
    try Data(stdin.utf8).write(to: inURL)
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    process.standardInput = try FileHandle(forReadingFrom: inURL)
    try process.run()
    process.waitUntilExit()
    return CLIResult(stdout: try String(contentsOf: outURL, encoding: .utf8), stderr: try String(contentsOf: errURL, encoding: .utf8),
                     exitCode: process.terminationStatus)
}

/// Writes `text` to a new file in `directory` and returns its path.
func writeTemporary(_ text: String, named name: String, in directory: TemporaryDirectory) -> String {
    let path = directory.path + "/" + name
    writeFile(path, text)
    return path
}
