import Foundation
import Testing
import EntitlementTestSupport

/// SIGKILL during a mutation's commit or during a sync: no half-merged file, no lost
/// transaction, no stuck lock; the next command recovers.
@Suite(.tags(.endToEnd), .serialized, .enabled(if: Binary.exists))
struct TeamStoreCrashTests {
    /// Starts the binary and kills it after `delay` microseconds.
    static func killed(_ arguments: [String], team: TeamFixture, after delay: UInt32) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in team.environment { env[key] = value }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    @Test func killedGrantsAreCommittedOrAbsentAndNothingStaysLocked() throws {
        let team = try TeamFixture.team(of: 1)
        var random = SplitMix64(seed: 42)
        for round in 0..<12 {
            try Self.killed(["grant", "user\(round)", "premium", "--lifetime", "--reason", "round \(round)", "--store", team.store("s0")],
                            team: team, after: UInt32(2_000 + random.next() % 40_000))
            let next = try team.run(["grant", "after\(round)", "premium", "--lifetime", "--lock-timeout", "5"], in: "s0")
            #expect(next.exitCode == 0, "round \(round): \(next.stderr)")
            // The working tree equals HEAD: whatever the killed grant wrote is committed.
            #expect(try team.settledStatus(in: "s0").isEmpty, "round \(round)")
        }
        #expect(try team.git(["fsck", "--strict"], in: "s0").exitCode == 0)
        for round in 0..<12 {
            let check = try team.run(["check", "user\(round)", "--quiet"], in: "s0").exitCode
            #expect(check == 0 || check == 1)
            if check == 0 {
                let log = try team.git(["log", "--format=%s"], in: "s0").stdout
                #expect(log.contains("grant premium to user\(round) for life: round \(round)"), "the killed grant's own message")
            }
        }
    }

    @Test func journalLeftByAKilledWriterIsCommittedByTheNextOne() throws {
        let team = try TeamFixture.team(of: 1)
        let root = team.store("s0")
        // The state a writer killed after its file write and before its commit leaves behind.
        try FileManager.default.moveItem(atPath: root + "/.git", toPath: root + "/.git-away")
        #expect(try team.run(["grant", "gina", "premium", "--lifetime"], in: "s0").exitCode == 0)
        try FileManager.default.moveItem(atPath: root + "/.git-away", toPath: root + "/.git")
        let profile = try team.run(["path", "gina"], in: "s0").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let relative = String(profile.dropFirst(root.count + 1))
        try FileManager.default.createDirectory(atPath: root + "/.git/entitlement", withIntermediateDirectories: true)
        try "grant premium to gina for life\nOps <ops@example.com>\n\(relative)\n".write(toFile: root + "/.git/entitlement/journal", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: root + "/.git/index.lock", contents: Data())
        let next = try team.run(["grant", "hank", "premium", "--lifetime"], in: "s0")
        #expect(next.exitCode == 0, "\(next.stderr)")
        let log = try team.git(["log", "-2", "--format=%an|%s"], in: "s0").stdout
        #expect(log.contains("Ops|grant premium to gina for life"))
        #expect(!FileManager.default.fileExists(atPath: root + "/.git/index.lock"))
        #expect(!FileManager.default.fileExists(atPath: root + "/.git/entitlement/journal"))
        let status = try team.settledStatus(in: "s0")
        // Only the profile-id index entry of gina, written after the .git came back, is not in the journal.
        #expect(!status.contains(relative))
    }

    @Test func killedSyncsLeaveNoHalfMergedFile() throws {
        let team = try TeamFixture.team(of: 2)
        var random = SplitMix64(seed: 7)
        let rounds = TeamStoreConvergenceTests.stress ? 8 : 3, profiles = TeamStoreConvergenceTests.stress ? 15 : 6
        for round in 0..<rounds {
            for index in 0..<profiles {
                #expect(try team.run(["grant", "shared\(index)", "premium", "--duration", "\(round + 1)d", "--reason", "s0 \(round)"], in: "s0").exitCode == 0)
                #expect(try team.run(["grant", "shared\(index)", "sports", "--duration", "\(round + 1)d", "--reason", "s1 \(round)"], in: "s1").exitCode == 0)
            }
            #expect(try team.run(["sync"], in: "s1").exitCode == 0)
            try Self.killed(["sync", "--store", team.store("s0")], team: team, after: UInt32(5_000 + random.next() % 60_000))
            let next = try team.run(["sync"], in: "s0")
            #expect(next.exitCode == 0, "round \(round): \(next.stderr)")
            #expect(try team.settledStatus(in: "s0").isEmpty, "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: team.store("s0") + "/.git/MERGE_HEAD"))
            for index in 0..<profiles {
                let status = try team.run(["status", "shared\(index)", "--json"], in: "s0")
                #expect(status.exitCode == 0, "every file readable: \(status.stderr)")
            }
        }
        #expect(try team.run(["sync"], in: "s1").exitCode == 0)
        #expect(team.snapshot("s0") == team.snapshot("s1"))
    }
}
