import Foundation
import Glibc

/// Runs the built binary with a time limit: a hang is a result (`timedOut`), never a stuck suite.
package struct BoundedResult {
    package var stdout: String
    package var stderr: String
    package var exitCode: Int32
    package var timedOut: Bool
    /// True when the process died of a signal (a crash: SIGILL, SIGSEGV, SIGABRT…).
    package var signalled: Bool
}

package enum BoundedRun {
    package static func run(_ arguments: [String], stdin: Data = Data(), seconds: Double = 10,
                    environment: [String: String] = [:]) throws -> BoundedResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["ENTITLEMENT_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitlement-bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
        let inURL = directory.appendingPathComponent("in")
        try stdin.write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // A monotonic clock: a wall-clock step (NTP, a changed date) never kills early or late.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        var timedOut = false
        while process.isRunning {
            if clock.now > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        try input.close()
        return BoundedResult(stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
                             stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
                             exitCode: process.terminationStatus, timedOut: timedOut,
                             signalled: process.terminationReason == .uncaughtSignal)
    }
}
