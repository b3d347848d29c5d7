import Foundation
import Testing
@testable import EntitlementModel
import EntitlementTestSupport

/// Plain `git merge` in a store repository merges through `entitlement merge-driver`,
/// set up exactly as docs/team-store.md says.
@Suite(.tags(.endToEnd))
struct GitMergeDriverTests {
    let directory = TemporaryDirectory()

    /// Runs git in `repository` with a private configuration (no user or system files).
    @discardableResult
    func git(_ arguments: [String], in repository: String) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_AUTHOR_NAME"] = "Dana"
        environment["GIT_AUTHOR_EMAIL"] = "dana@example.com"
        environment["GIT_COMMITTER_NAME"] = "Dana"
        environment["GIT_COMMITTER_EMAIL"] = "dana@example.com"
        process.environment = environment
        let output = directory.path + "/git-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: output + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: output + ".err", contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".out"))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".err"))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(stdout: readFile(output + ".out") ?? "", stderr: readFile(output + ".err") ?? "", exitCode: process.terminationStatus)
    }

    /// A store that is a git repository with the merge driver set up, one commit on `main`.
    func repository() throws -> String {
        let store = directory.path + "/store"
        #expect(try Binary.run(["init", "--store", store, "--entitlement", "premium", "--entitlement", "sports"]).exitCode == 0)
        try git(["init", "-q", "-b", "main"], in: store)
        writeFile(store + "/.gitattributes", "profiles/** merge=entitlement\nconfig.json merge=entitlement\n")
        try git(["config", "merge.entitlement.name", "entitlement semantic merge"], in: store)
        try git(["config", "merge.entitlement.driver", "'\(Binary.path)' merge-driver %O %A %B %P"], in: store)
        try grant(store, "alice", "premium", "--duration", "1m")
        try commit(store, "base")
        return store
    }

    func grant(_ store: String, _ user: String, _ entitlement: String, _ options: String...) throws {
        let result = try Binary.run(["grant", user, entitlement, "--store", store, "--reason", "test", "--actor", "dana"] + options)
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    func commit(_ store: String, _ message: String) throws {
        try git(["add", "-A"], in: store)
        // A store with its own .git is a team store: the tool may have committed its writes already.
        #expect(try git(["commit", "-q", "--allow-empty", "-m", message], in: store).exitCode == 0)
    }

    /// Two branches that each granted with one idempotency key, and one that also revoked.
    func divergedRepository() throws -> String {
        let store = try repository()
        try git(["checkout", "-q", "-b", "other"], in: store)
        try grant(store, "alice", "sports", "--duration", "7d", "--idempotency-key", "INC-42")
        try commit(store, "other: sports")
        try git(["checkout", "-q", "main"], in: store)
        try grant(store, "alice", "sports", "--duration", "14d", "--idempotency-key", "INC-42")
        #expect(try Binary.run(["revoke", "alice", "premium", "--yes", "--store", store, "--reason", "fraud", "--actor", "lee"]).exitCode == 0)
        try commit(store, "main: sports, revoke premium")
        return store
    }

    @Test func plainGitMergeMergesAProfileSemantically() throws {
        try #require(Binary.exists, "build the binary first (make test does)")
        let store = try divergedRepository()
        let merge = try git(["merge", "-q", "--no-edit", "other"], in: store)
        #expect(merge.exitCode == 0, "\(merge.stdout)\(merge.stderr)")
        let text = try #require(readFile(store + "/profiles/alice.json"))
        #expect(!text.contains("<<<<<<<") && !text.contains(">>>>>>>"))
        let profile = Merge.profile(text)
        #expect(profile.transactions.count == 3)
        #expect(profile.transactions.filter { $0.entitlement == "premium" }.allSatisfy { $0.revokedAt != nil })
        let sports = profile.transactions.filter { $0.idempotencyKey == "INC-42" }
        #expect(sports.count == 2)
        #expect(sports.filter { $0.revocationReason == "duplicate_idempotency_key" }.count == 1)
        #expect(text == Merge.text(profile))
        #expect(try git(["status", "--porcelain"], in: store).stdout.isEmpty)
        #expect(try Binary.run(["status", "alice", "--store", store]).exitCode == 0)
    }

    @Test func mergingEitherWayGivesTheSameFile() throws {
        try #require(Binary.exists)
        let store = try divergedRepository()
        try git(["checkout", "-q", "-b", "main-copy", "main"], in: store)
        #expect(try git(["merge", "-q", "--no-edit", "other"], in: store).exitCode == 0)
        let intoMain = readFile(store + "/profiles/alice.json")
        try git(["checkout", "-q", "other"], in: store)
        #expect(try git(["merge", "-q", "--no-edit", "main"], in: store).exitCode == 0)
        #expect(readFile(store + "/profiles/alice.json") == intoMain)
    }

    @Test func aConfigConflictStopsTheMergeByFileAndFieldWithoutMarkers() throws {
        try #require(Binary.exists)
        let store = try repository()
        let config = try #require(readFile(store + "/config.json"))
        try git(["checkout", "-q", "-b", "other"], in: store)
        writeFile(store + "/config.json", config.replacingOccurrences(of: "\"sports\": {", with: "\"sports\": {\"description\": \"Theirs\","))
        try commit(store, "other: describe sports")
        try git(["checkout", "-q", "main"], in: store)
        let ours = config.replacingOccurrences(of: "\"sports\": {", with: "\"sports\": {\"description\": \"Ours\",")
        writeFile(store + "/config.json", ours)
        try commit(store, "main: describe sports")
        let merge = try git(["merge", "--no-edit", "other"], in: store)
        #expect(merge.exitCode != 0)
        #expect((merge.stdout + merge.stderr).contains("Error: config.json: cannot merge entitlements.sports.description"))
        #expect(readFile(store + "/config.json") == ours)
        #expect(try git(["diff", "--name-only", "--diff-filter=U"], in: store).stdout == "config.json\n")
    }

    @Test func aCorruptProfileOnTheOtherBranchIsNeverRewritten() throws {
        try #require(Binary.exists)
        let store = try repository()
        try git(["checkout", "-q", "-b", "other"], in: store)
        writeFile(store + "/profiles/alice.json", "{\"customer_user_id\": \"alice\", \"transactions\": [")
        try commit(store, "other: corrupt")
        try git(["checkout", "-q", "main"], in: store)
        try grant(store, "alice", "sports", "--duration", "7d")
        try commit(store, "main: sports")
        let before = readFile(store + "/profiles/alice.json")
        let merge = try git(["merge", "--no-edit", "other"], in: store)
        #expect(merge.exitCode != 0)
        #expect((merge.stdout + merge.stderr).contains("Error: profiles/alice.json (theirs): invalid JSON"))
        #expect(readFile(store + "/profiles/alice.json") == before)
    }
}
