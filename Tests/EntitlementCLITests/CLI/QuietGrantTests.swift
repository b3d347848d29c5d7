import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `-q` on a single grant, and as a global option before the command.
@Suite(.tags(.cli))
struct QuietGrantTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [
        ["grant", "-q", "alice@example.com", "premium", "--duration", "7d"],
        ["grant", "--quiet", "alice@example.com", "premium", "--duration", "7d"],
        ["-q", "grant", "alice@example.com", "premium", "--duration", "7d"],
    ])
    func quietSingleGrantPrintsNothingAndAnswersByExitCode(_ arguments: [String]) {
        let store = directory.copyOfDemoStore()
        let result = runCLI(arguments + ["--store", store])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)  // not even the new-customer note
        #expect(FileManager.default.fileExists(atPath: store + "/profiles/alice@example.com.json"))
    }

    @Test func quietSingleGrantStillReportsErrors() {
        let store = directory.copyOfDemoStore()
        let result = runCLI(["-q", "grant", "alice", "premuim", "--duration", "7d", "--store", store])
        #expect(result.exitCode == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: entitlement 'premuim'"))
    }

    @Test func allOrNothingStillGoesWithStdin() {
        let result = runCLI(["grant", "alice", "premium", "--duration", "7d", "--all-or-nothing"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--all-or-nothing goes with --stdin"))
    }
}
