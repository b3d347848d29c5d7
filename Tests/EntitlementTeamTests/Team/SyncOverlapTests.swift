import Foundation
import Testing
import EntitlementTestSupport

/// `sync` checks for uncommitted edits while its fetch runs, under the store lock it takes
/// before the fetch; a fetch that brings nothing cancels the check.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct SyncOverlapTests {
    /// A git on PATH whose `fetch` waits (up to 20 s) for `git status` to have started, and
    /// fails if it never does: only a sync that runs the two at once succeeds.
    static func waitingGit(_ team: TeamFixture) throws -> [String: String] {
        let bin = team.directory.path + "/overlap-bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let marker = team.directory.path + "/status-started"
        let script = """
            #!/bin/sh
            case " $* " in
            *" status "*) : > '\(marker)' ;;
            *" fetch "*) i=0; while [ ! -e '\(marker)' ]; do i=$((i+1)); [ $i -gt 2000 ] && { echo 'status never started' >&2; exit 1; }; sleep 0.01; done ;;
            esac
            exec /usr/bin/git "$@"

            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/git"))
        chmod(bin + "/git", 0o755)
        return ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    @Test func theCheckRunsWhileTheFetchRuns() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "ann", "premium", "--lifetime"], in: "s1").exitCode == 0)
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        let sync = try team.run(["sync", "--pull-only"], in: "s0", extra: try Self.waitingGit(team))
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try team.run(["check", "ann", "premium", "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.settledStatus(in: "s0").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.git/entitlement/local-git-running"))
    }

    /// Nothing to bring in: an edit not committed is no reason to refuse (nothing is merged
    /// over it), and the check started beside the fetch leaves nothing behind.
    @Test func nothingIncomingLeavesAnUncommittedEditAlone() throws {
        let team = try TeamFixture.team(of: 1)
        #expect(try team.run(["grant", "ann", "premium", "--lifetime"], in: "s0").exitCode == 0)
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let path = team.store("s0") + "/config.json"
        let handEdit = try String(contentsOfFile: path, encoding: .utf8) + "\n"
        try Data(handEdit.utf8).write(to: URL(fileURLWithPath: path))
        let sync = try team.run(["sync", "--pull-only"], in: "s0")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == handEdit)
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.git/index.lock"))
        #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.git/entitlement/local-git-running"))
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == " M config.json\n")
    }
}
