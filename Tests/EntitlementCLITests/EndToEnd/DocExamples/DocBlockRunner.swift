import Foundation
@testable import EntitlementCLI
import EntitlementTestSupport

/// Runs one ```console block as a person would type it, in a fresh directory
/// (CONTRIBUTING.md, "Docs that run").
///
/// The block gets its own copy of `Fixtures/` (so a command may write to a store), a
/// `HOME` of its own, `entitlement` first on `PATH` (the built binary, `ENTITLEMENT_BIN`),
/// `TZ=UTC`, `LANG=C.UTF-8`, `NO_COLOR=1`, no `ENTITLEMENT_*` variable, and the variables
/// its comment names. All its lines run in one bash, one after the other, with standard
/// error joined to standard output as a terminal shows them and standard input empty.
struct DocBlockRunner {
    /// What one `$ ` line printed, and its exit status.
    struct Outcome {
        var output: [String]
        var status: Int32?
    }

    static let marker = "\u{1E}"

    /// The outcomes of the set-up lines, then of the shown lines; nil entries for lines a failure left unrun.
    static func run(_ block: DocBlock, seconds: Int = 120) throws -> (setup: [Outcome], commands: [Outcome], log: String) {
        let directory = TemporaryDirectory()
        let work = directory.path + "/work", home = directory.path + "/home", bin = directory.path + "/bin"
        for folder in [work, home, bin] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Fixtures", toPath: work + "/Fixtures")
        try FileManager.default.createSymbolicLink(atPath: bin + "/entitlement", withDestinationPath: Binary.path)
        var script = "exec 2>&1 </dev/null\ncd \(ShellQuote.posix(block.workingDirectory)) || exit 99\n"
        for command in block.setup + block.commands {
            script += command.text + "\nprintf '\(marker)%d\\n' \"$?\"\n"
        }
        let scriptPath = directory.path + "/block.sh"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        var environment = [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": home, "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb",
            "USER": "support", "LOGNAME": "support", "TMPDIR": directory.path,
        ]
        for (key, value) in block.environment { environment[key] = value }
        // CSV lines end with CRLF; a Swift String keeps "\r\n" as one Character, so split lines first.
        let log = try runBash(scriptPath, in: work, environment: environment, seconds: seconds).replacingOccurrences(of: "\r\n", with: "\n")
        var segments = log.components(separatedBy: marker)
        var outcomes: [Outcome] = []
        var output = segments.removeFirst()
        for segment in segments {
            let newline = segment.firstIndex(of: "\n") ?? segment.endIndex
            outcomes.append(Outcome(output: lines(output), status: Int32(segment[..<newline])))
            output = String(segment[newline...].dropFirst())
        }
        while outcomes.count < block.setup.count + block.commands.count { outcomes.append(Outcome(output: lines(output), status: nil)); output = "" }
        return (Array(outcomes.prefix(block.setup.count)), Array(outcomes.dropFirst(block.setup.count)), log)
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// bash on the script with only `environment`, killed after `seconds` (a hang fails the block, never the suite).
    private static func runBash(_ script: String, in directory: String, environment: [String: String], seconds: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "-k", "5", String(seconds), "bash", "--noprofile", "--norc", script]
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let outPath = (script as NSString).deletingLastPathComponent + "/output"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self)
    }
}
