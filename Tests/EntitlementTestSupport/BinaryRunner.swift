import Foundation
import Testing

/// Runs the built `entitlement` binary, for end-to-end tests.
package enum Binary {
    /// `$ENTITLEMENT_BIN` (the Makefile sets it), else the debug build path.
    package static let path: String = {
        if let path = ProcessInfo.processInfo.environment["ENTITLEMENT_BIN"], !path.isEmpty { return path }
        return repositoryRoot + "/.build/debug/entitlement"
    }()

    package static var exists: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs the binary to completion; `launcher` (a program and its arguments, ending with the
    /// binary to run) replaces the plain start, for example to run it as another user.
    package static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], launcher: [String]? = nil) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher?.first ?? path)
        process.arguments = (launcher.map { Array($0.dropFirst()) } ?? []) + arguments
        var env = ProcessInfo.processInfo.environment
        env["ENTITLEMENT_STORE"] = nil
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Output goes to files, so a large output can never block the child on a full pipe.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitlement-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout"), errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(stdout: try String(contentsOf: outURL, encoding: .utf8), stderr: try String(contentsOf: errURL, encoding: .utf8),
                         exitCode: process.terminationStatus)
    }
}
