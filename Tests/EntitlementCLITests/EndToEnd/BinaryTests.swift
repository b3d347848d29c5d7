import Foundation
import Testing
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The built binary on Fixtures/: stdout, stderr and the exit code, as a script sees them.
@Suite(.tags(.endToEnd))
struct BinaryTests {
    let at = ["--at", "2026-01-15T12:00:00Z"]

    @Test func checkAnswersWithExitCodes() throws {
        try #require(Binary.exists, "build the binary first (make test does)")
        let yes = try Binary.run(["check", "active-renewing", "--store", demoStorePath, "--quiet"] + at)
        #expect(yes.exitCode == 0 && yes.stdout.isEmpty && yes.stderr.isEmpty)
        let no = try Binary.run(["check", "expired", "--store", demoStorePath, "-q"] + at)
        #expect(no.exitCode == 1 && no.stdout.isEmpty && no.stderr.isEmpty)
        let line = try Binary.run(["check", "grace-period", "--store", demoStorePath] + at)
        #expect(line.stdout == "grace-period  premium  grace_period  grace ends 2026-01-30 16:45 UTC (in 15 days)\n")
    }

    @Test func outputMatchesTheInProcessGoldenFiles() throws {
        try #require(Binary.exists)
        let status = try Binary.run(["status", "multi-entitlement", "--store", demoStorePath] + at)
        #expect(status.exitCode == 0)
        expectGolden(status.stdout, named: "status-multi-entitlement.txt")
        let help = try Binary.run(["--help"])
        expectGolden(help.stdout, named: "help.txt")
        let version = try Binary.run(["--version"])
        #expect(version.stdout == "entitlement \(CLI.version)\n")
    }

    @Test func storeComesFromTheEnvironment() throws {
        try #require(Binary.exists)
        let result = try Binary.run(["check", "lifetime", "-q"] + at, environment: ["ENTITLEMENT_STORE": demoStorePath])
        #expect(result.exitCode == 0)
        let directory = TemporaryDirectory()
        let missing = try Binary.run(["check", "lifetime"], environment: ["ENTITLEMENT_STORE": "", "XDG_DATA_HOME": directory.path])
        #expect(missing.exitCode == 4)
        #expect(missing.stderr.hasPrefix("Error: no store at \(directory.path)/entitlement/store\n"))
        #expect(missing.stderr.contains("entitlement init"))
    }

    @Test func batchCheckStreamsJSONLines() throws {
        try #require(Binary.exists)
        let input = "active-renewing\nexpired\n\nnobody\nlifetime\n"
        let result = try Binary.run(["check", "--stdin", "premium", "--store", demoStorePath] + at, stdin: input)
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let states = try lines.map { try JSONParser.parse($0).objectValue?["state"] }
        #expect(states == [.string("active"), .string("expired"), .string("never"), .string("active")])
        let allEntitled = try Binary.run(["check", "--stdin", "--store", demoStorePath] + at, stdin: "lifetime\ntrial")
        #expect(allEntitled.exitCode == 0)
        let corrupt = TemporaryDirectory()
        let store = corrupt.copyOfDemoStore()
        writeFile(store + "/profiles/broken.json", "{")
        let withError = try Binary.run(["check", "--stdin", "--store", store] + at, stdin: "lifetime\nbroken\n")
        #expect(withError.exitCode == 4)
        #expect(withError.stdout.contains("\"error\""))
    }

    @Test func initCreatesAStoreAndRefusesToOverwrite() throws {
        try #require(Binary.exists)
        let directory = TemporaryDirectory()
        let store = directory.path + "/new-store"
        let created = try Binary.run(["init", "--store", store, "--entitlement", "premium", "--entitlement", "sports"])
        #expect(created.exitCode == 0)
        let config = try ProductConfiguration(json: JSONParser.parse(readFile(store + "/config.json") ?? ""))
        #expect(config.entitlementIDs == ["premium", "sports"])
        let again = try Binary.run(["init", "--store", store])
        #expect(again.exitCode == 4)
        #expect(again.stderr.contains("already exists"))
        let granted = try Binary.run(["grant", "first", "sports", "--duration", "P7D", "--store", store, "--actor", "e2e"])
        #expect(granted.exitCode == 0)
        #expect(try Binary.run(["check", "first", "sports", "--store", store, "-q"]).exitCode == 0)
    }

    @Test(arguments: [
        (["chek", "x"], 2, "Error: unknown command 'chek'. Did you mean 'check'?"),
        (["check", "x", "--quite"], 2, "Error: unknown option '--quite' for 'check'. Did you mean '--quiet'?"),
        (["check", "x", "--at", "last week"], 2, "Error: invalid date for --at: 'last week'."),
        (["status", "nobody"], 3, "Error: no profile for user 'nobody'"),
        (["grant", "u", "premium"], 2, "Error: missing --duration, --until or --lifetime"),
    ])
    func badInputGetsOneClearErrorAndAnExitCode(arguments: [String], code: Int32, message: String) throws {
        try #require(Binary.exists)
        let result = try Binary.run(arguments + ["--store", demoStorePath])
        #expect(result.exitCode == code)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("EntitlementCore."))
    }

    @Test func hostileUserIDsStayInsideTheStoreAndOffTheTerminal() throws {
        try #require(Binary.exists)
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let ids = ["../../escape", "/etc/passwd", ".hidden", "..", "José Ñ 名前", String(repeating: "x", count: 3000)]
        for id in ids {
            let result = try Binary.run(["grant", id, "premium", "--duration", "1d", "--store", store, "--actor", "e2e"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}"))
            let check = try Binary.run(["check", id, "--store", store])
            #expect(check.exitCode == 0)
            #expect(!check.stdout.contains("\u{1B}"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/escape.json"))
        let names = try FileManager.default.contentsOfDirectory(atPath: store + "/profiles")
        #expect(names.allSatisfy { !$0.hasPrefix(".") || $0.contains(".tmp-") == false && $0.hasPrefix(".") == false })
        // A new profile is never created for an id with control characters; it is named escaped.
        let hostile = try Binary.run(["grant", "\u{1B}[31mred", "premium", "--duration", "1d", "--store", store, "--actor", "e2e"])
        #expect(hostile.exitCode == 2 && hostile.stderr.contains("\\u{1b}[31mred") && !hostile.stderr.contains("\u{1B}"))
        #expect(try Binary.run(["check", "\u{1B}[31mred", "--store", store]).stdout.contains("\\u{1b}[31mred"))
        let empty = try Binary.run(["check", "", "--store", store])
        #expect(empty.exitCode == 2)
    }

    /// The real argv path: bytes that are not UTF-8 reach the binary through a shell and are refused,
    /// never repaired into U+FFFD (which would make two such ids one customer).
    @Test func argumentsThatAreNotUTF8AreRefusedByTheBinary() throws {
        try #require(Binary.exists)
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let before = try FileManager.default.contentsOfDirectory(atPath: store + "/profiles").count
        for id in [#"\377\376"#, #"\200\201"#] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #""$0" grant "$(printf '\#(id)')" premium --lifetime --store "$1""#, Binary.path, store]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 2)
            #expect(stderr.hasPrefix("Error: argument 2 is not valid UTF-8: '\\x"), "\(stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/profiles").count == before)
    }
}
