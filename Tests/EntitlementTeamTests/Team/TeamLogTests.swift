import Foundation
import Testing
import EntitlementTestSupport

/// `entitlement log` in a team store: read from git's history, each event with the
/// commit that recorded it, and the same events a plain sweep of the same files finds.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct TeamLogTests {
    static func records(_ result: CLIResult) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
    }

    static func key(_ record: [String: Any]) -> String {
        ["customer_user_id", "event", "transaction_id", "at", "actor"].map { "\(record[$0] ?? "-")" }.joined(separator: "|")
    }

    @Test func teamLogNamesCommitsAndAgreesWithAPlainSweep() throws {
        let team = try TeamFixture.team(of: 2)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1m", "--reason", "INC-9", "--idempotency-key", "K"], in: "s0").exitCode == 0)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1w", "--idempotency-key", "K"], in: "s1").exitCode == 0)
        #expect(try team.run(["grant", "bob", "sports", "--lifetime", "--actor", "Lee <lee@example.com>"], in: "s1").exitCode == 0)
        #expect(try team.run(["revoke", "alice", "premium", "--yes", "--reason", "oops"], in: "s0").exitCode == 0)
        for clone in ["s0", "s1", "s0"] { #expect(try team.run(["sync"], in: clone).exitCode == 0) }
        let log = try Self.records(try team.run(["log", "--json"], in: "s1"))
        #expect(log.count >= 5, "two grants to alice, one to bob, a revocation, the merge's voiding")
        for record in log {
            let commit = try #require(record["commit"] as? [String: Any], "every event names its commit: \(record)")
            #expect((commit["id"] as? String)?.count == 40)
        }
        let bob = try #require(log.first { $0["customer_user_id"] as? String == "bob" })
        #expect((bob["commit"] as? [String: Any])?["author"] as? String == "Lee <lee@example.com>")
        let void = try #require(log.first { $0["duplicate_of"] != nil })
        let mergeCommit = try #require((void["commit"] as? [String: Any])?["id"] as? String)
        #expect(try team.git(["rev-list", "--parents", "-n", "1", mergeCommit], in: "s1").stdout.split(separator: " ").count == 3, "made by the merge")
        // The same events as a plain sweep of the same files.
        let plain = team.directory.path + "/plain"
        _ = try Binary.runProgram("/bin/cp", ["-a", team.store("s1"), plain])
        try FileManager.default.removeItem(atPath: plain + "/.git")
        let swept = try Self.records(try Binary.run(["log", "--json", "--store", plain]))
        #expect(swept.map(Self.key) == log.map(Self.key))
        // A period with nothing in it reads nothing.
        #expect(try team.run(["log", "--since", "2099-01-01"], in: "s1").stdout == "No events.\n")
        let revocations = try Self.records(try team.run(["log", "--json", "--event", "revocation", "--actor", "Agent s0"], in: "s0"))
        #expect(revocations.count == 1 && revocations.first?["reason"] as? String == "oops")
    }

    /// Enough changed profiles that each core reads its share with its own `cat-file`: the
    /// records, their order and their commits are those of one reader (a plain sweep).
    @Test func aLogOfManyProfilesSplitOverCoresLosesAndRepeatsNothing() throws {
        let team = try TeamFixture.team(of: 2)
        let customers = (0..<700).map { "c\($0)" }
        let bulk = try team.run(["grant", "--stdin", "premium", "--duration", "1w", "--reason", "batch", "--quiet"], in: "s0",
                                stdin: customers.joined(separator: "\n") + "\n")
        #expect(bulk.exitCode == 0, "\(bulk.stderr)")
        #expect(try team.run(["grant", "c5", "sports", "--lifetime", "--actor", "Lee <lee@example.com>"], in: "s1").exitCode == 0)
        #expect(try team.run(["revoke", "c699", "premium", "--yes", "--reason", "oops"], in: "s0").exitCode == 0)
        for clone in ["s0", "s1", "s0"] { #expect(try team.run(["sync"], in: clone).exitCode == 0) }
        let log = try Self.records(try team.run(["log", "--json"], in: "s0"))
        #expect(log.count == 702, "700 grants, one more grant, one revocation")
        #expect(Set(log.map(Self.key)).count == log.count, "no event twice")
        #expect(log.allSatisfy { ($0["commit"] as? [String: Any])?["id"] is String })
        let plain = team.directory.path + "/plain"
        _ = try Binary.runProgram("/bin/cp", ["-a", team.store("s0"), plain])
        try FileManager.default.removeItem(atPath: plain + "/.git")
        #expect(try Self.records(try Binary.run(["log", "--json", "--store", plain])).map(Self.key) == log.map(Self.key))
        let limited = try Self.records(try team.run(["log", "--json", "--limit", "3"], in: "s0"))
        #expect(limited.map(Self.key) == log.suffix(3).map(Self.key))
    }
}
