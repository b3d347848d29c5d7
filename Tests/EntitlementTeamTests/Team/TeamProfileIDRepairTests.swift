import Foundation
import Testing
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// `verify --fix` on stores an older merge left with a dropped profile id:
/// the fixtures are made as that merge left them, by hand.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: Binary.exists))
struct TeamProfileIDRepairTests {
    /// The id the other clone gave out, which the older merge dropped from the profile.
    static let droppedID = "0b8f3c1e-2f4a-4c55-9a0e-7d1c2b3a4f5e"

    /// An index entry naming `user` under `id`, where the store's layout puts it.
    private func writeIndexEntry(_ id: String, naming user: String, in root: String, layout: ProfileLayout) throws {
        let path = root + "/index/profile-id/" + layout.relativePath(forName: ProfileFileName.name(for: id))
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(user.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aTeamStoreGetsTheDroppedIdBackInOneCommitByTheActor() throws {
        let team = try TeamFixture.team(of: 1)
        #expect(try team.run(["grant", "alice", "premium", "--duration", "1m", "--actor", "Ana"], in: "s0").exitCode == 0)
        try writeIndexEntry(Self.droppedID, naming: "alice", in: team.store("s0"), layout: .fanout)
        try team.git(["add", "--all"], in: "s0")
        try team.git(["commit", "--quiet", "-m", "merge as an older version made it"], in: "s0")
        let broken = try team.run(["verify"], in: "s0")
        #expect(broken.exitCode == 4 && broken.stdout.contains("points nowhere"))
        #expect(try team.run(["status", "--profile-id", Self.droppedID], in: "s0").exitCode == 3)
        let before = try team.git(["rev-parse", "HEAD"], in: "s0").stdout

        let fixed = try team.run(["verify", "--fix", "--actor", "Fixer <fixer@example.com>"], in: "s0")
        #expect(fixed.exitCode == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("fixed: alice: profile id \(Self.droppedID) restored as an alias"))
        #expect(try team.run(["status", "--profile-id", Self.droppedID, "--quiet"], in: "s0").exitCode == 0)
        #expect(try team.git(["log", "-1", "--format=%an <%ae>|%P"], in: "s0").stdout == "Fixer <fixer@example.com>|\(before)")
        #expect(try team.git(["show", "--name-only", "--format=", "HEAD"], in: "s0").stdout.split(separator: "\n") == ["profiles/\(ProfileLayout.fanout.relativePath(forName: "alice", suffix: ".json"))"])
        #expect(try team.git(["status", "--porcelain"], in: "s0").stdout == "")
        #expect(try team.run(["verify", "--quiet"], in: "s0").exitCode == 0)
        // Nothing left to fix: no write, no commit.
        let again = try team.run(["verify", "--fix"], in: "s0")
        #expect(again.exitCode == 0 && !again.stdout.contains("fixed:"))
        #expect(try team.git(["rev-parse", "HEAD^"], in: "s0").stdout == before)
    }

    @Test func aPlainStoreRepairsEveryCustomerInOneWriteAndReportsItInJSON() throws {
        let directory = TemporaryDirectory()
        let store = directory.path + "/store"
        #expect(try Binary.run(["init", "--entitlement", "premium", "--store", store]).exitCode == 0)
        for user in ["bo", "cy"] { #expect(try Binary.run(["grant", user, "premium", "--lifetime", "--actor", "Seed", "--store", store]).exitCode == 0) }
        try writeIndexEntry(Self.droppedID, naming: "bo", in: store, layout: .flat)
        try writeIndexEntry("11111111-2222-4333-8444-555555555555", naming: "cy", in: store, layout: .flat)
        try writeIndexEntry("22222222-2222-4333-8444-555555555555", naming: "cy", in: store, layout: .flat)
        #expect(try Binary.run(["verify", "--quiet", "--store", store]).exitCode == 4)

        let fixed = try Binary.run(["verify", "--fix", "--json", "--store", store])
        #expect(fixed.exitCode == 0, "\(fixed.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        let restored = try #require(object["fixed"] as? [[String: Any]])
        #expect(restored.compactMap { $0["customer_user_id"] as? String } == ["bo", "cy", "cy"])
        #expect(object["clean"] as? Bool == true)
        let profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store + "/profiles/cy.json"))) as? [String: Any])
        #expect(profile["profile_id_aliases"] as? [String] == ["11111111-2222-4333-8444-555555555555", "22222222-2222-4333-8444-555555555555"])
        for id in [Self.droppedID, "22222222-2222-4333-8444-555555555555"] {
            #expect(try Binary.run(["status", "--profile-id", id, "--quiet", "--store", store]).exitCode == 0)
        }
        #expect(!FileManager.default.fileExists(atPath: store + "/.journal"))
    }
}
