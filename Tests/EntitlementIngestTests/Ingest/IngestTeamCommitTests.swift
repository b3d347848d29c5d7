import Foundation
import Testing
import EntitlementTestSupport

/// In a team store `ingest` commits once per batch: the message names the
/// vendor, the count and the event ids; the author is the configured ingest actor; nothing is
/// left uncommitted. Real git, the built binary.
@Suite(.tags(.endToEnd), .timeLimit(.minutes(10)), .enabled(if: Binary.exists, "needs the built binary"))
struct IngestTeamCommitTests {
    typealias F = IngestFixtures

    /// A one-clone team store configured with `monthly` → premium, and a secrets file.
    static func team() throws -> (team: TeamFixture, secrets: String) {
        let team = try TeamFixture.team(of: 1)
        writeFile(team.store("s0") + "/config.json", F.config)
        try team.git(["commit", "--quiet", "-am", "monthly"], in: "s0")
        let secrets = team.directory.path + "/secrets.json"
        writeFile(secrets, F.json(["revenuecat": ["authorization": F.secret]]))
        chmod(secrets, 0o600)
        return (team, secrets)
    }

    static func commits(_ team: TeamFixture) throws -> [String] {
        try team.git(["log", "--format=%an <%ae>|%s"], in: "s0").stdout.split(separator: "\n").map(String.init)
    }

    @Test func oneCommitPerBatchNamingVendorCountAndIds() throws {
        let (team, secrets) = try Self.team()
        let before = try Self.commits(team).count
        let events = (0..<3).map { F.revenueCat("INITIAL_PURCHASE", id: "e\($0)", at: 0, user: "user\($0)", transaction: "t\($0)", original: "t\($0)") }
        var environment = team.environment
        environment["ENTITLEMENT_INGEST_ACTOR"] = "Ingest Bot <bot@example.com>"
        let result = try Binary.run(["ingest", "--stdin", "--store", team.store("s0"), "--secrets", secrets], stdin: events.joined(separator: "\n") + "\n",
                                    environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let commits = try Self.commits(team)
        #expect(commits.count == before + 1)
        #expect(commits.first == "Ingest Bot <bot@example.com>|ingest revenuecat: 3 events (e0, e1, e2)")
        #expect(try team.settledStatus(in: "s0") == "")
        // The ledger and the profiles are in that commit; the spool is not tracked.
        let files = try team.git(["show", "--name-only", "--format=", "HEAD"], in: "s0").stdout
        #expect(files.contains("profiles/"))
        #expect(files.contains("ingest/events/revenuecat/"))
        // A replay is a duplicate and commits nothing.
        let replay = try Binary.run(["ingest", "--stdin", "--store", team.store("s0"), "--secrets", secrets], stdin: events[0] + "\n", environment: environment)
        #expect(replay.exitCode == 0)
        #expect(try Self.commits(team).count == before + 1)
    }

    @Test func aBatchBoundaryIsACommitBoundary() throws {
        let (team, secrets) = try Self.team()
        let before = try Self.commits(team).count
        // 501 events: a batch of 500, then one of 1; the second message names its one id.
        let events = (0..<501).map { F.revenueCat("INITIAL_PURCHASE", id: "b\($0)", at: 0, user: "u\($0 % 7)", transaction: "t\($0)", original: "t\($0)") }
        let result = try Binary.run(["ingest", "--stdin", "--store", team.store("s0"), "--secrets", secrets, "--actor", "Cron <cron@example.com>"],
                                    stdin: events.joined(separator: "\n") + "\n", environment: team.environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let commits = try Self.commits(team)
        #expect(commits.count == before + 2)
        #expect(commits.first == "Cron <cron@example.com>|ingest revenuecat: 1 event (b500)")
        #expect(commits.dropFirst().first?.hasPrefix("Cron <cron@example.com>|ingest revenuecat: 500 events (") == true)
        #expect(try team.settledStatus(in: "s0") == "")
    }

    @Test func aWebhookInATeamStoreCommitsToo() throws {
        let (team, secrets) = try Self.team()
        let before = try Self.commits(team).count
        let body = F.revenueCat("INITIAL_PURCHASE", id: "w1", at: 0)
        var environment = team.environment.merging(F.cgi(body)) { $1 }
        environment["ENTITLEMENT_INGEST_ACTOR"] = "Hook <hook@example.com>"
        let result = try Binary.run(["webhook", "revenuecat", "--store", team.store("s0"), "--secrets", secrets], stdin: body, environment: environment)
        #expect(result.stdout.hasPrefix("Status: 200"), "\(result.stdout)")
        #expect(try Self.commits(team).first == "Hook <hook@example.com>|ingest revenuecat: 1 event (w1)")
        #expect(try Self.commits(team).count == before + 1)
        #expect(try team.settledStatus(in: "s0") == "")
    }
}
