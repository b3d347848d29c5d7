import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTeam
import EntitlementCLITestSupport
import EntitlementTestSupport

extension Merge {
    /// A new customer's profile_id is the same on every clone, and a merge
    /// of two different ids keeps both resolving.
    @Suite(.tags(.unit))
    struct ProfileIdentityTests {
        @Test func aNewCustomersIDFollowsFromTheUserIDAlone() {
            let id = ProfileIdentity.derived(for: "alice@example.com")
            #expect(id == ProfileIdentity.derived(for: "alice@example.com"))
            #expect(id != ProfileIdentity.derived(for: "alice@example.con"))
            #expect(id.count == 36 && id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
            #expect(id.split(separator: "-")[2].hasPrefix("8"), "version 8")
            #expect("89ab".contains(id.split(separator: "-")[3].first!), "RFC 9562 variant")
            // NFC and NFD are two users, as everywhere in the store.
            #expect(ProfileIdentity.derived(for: "Jos\u{E9}") != ProfileIdentity.derived(for: "Jose\u{301}"))
        }

        @Test func twoCreationsWithDifferentIDsKeepBothResolving() throws {
            let ours = Merge.profile(#"{"customer_user_id": "u1", "profile_id": "p-ours", "transactions": []}"#)
            let theirs = Merge.profile(#"{"customer_user_id": "u1", "profile_id": "p-theirs", "profile_id_aliases": ["p-old"], "transactions": []}"#)
            let merged = try Merge.mergedProfile(nil, ours, theirs)
            #expect(merged.profileID == "p-theirs")
            #expect(merged.profileIDAliases == ["p-old", "p-ours"])
            for id in ["p-ours", "p-theirs", "p-old"] { #expect(merged.answers(toProfileID: id)) }
            #expect(try Merge.merged(nil, theirs, ours) == Merge.merged(nil, ours, theirs))
        }

        @Test func anAliasResolvesAndVerifiesClean() throws {
            let directory = TemporaryDirectory()
            let store = directory.path + "/s"
            #expect(runCLI(["init", "--store", store, "--entitlement", "premium"]).exitCode == 0)
            #expect(runCLI(["grant", "u1", "premium", "--lifetime", "--store", store]).exitCode == 0)
            let path = runCLI(["path", "u1", "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // As a merge of an older version's second creation leaves it: another id, and its index entry.
            var profile = Merge.profile(try String(contentsOfFile: path, encoding: .utf8))
            profile.profileIDAliases = ["p-other"]
            try Data(Merge.bytes(profile)).write(to: URL(fileURLWithPath: path))
            let entry = EntitlementStore(root: store).profileIDIndexPath(for: "p-other")
            try FileManager.default.createDirectory(atPath: (entry as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("u1".utf8).write(to: URL(fileURLWithPath: entry))
            #expect(runCLI(["status", "--profile-id", "p-other", "--store", store]).exitCode == 0)
            #expect(runCLI(["status", "--profile-id", ProfileIdentity.derived(for: "u1"), "--store", store]).exitCode == 0)
            let verify = runCLI(["verify", "--store", store])
            #expect(verify.exitCode == 0, "\(verify.stdout)\(verify.stderr)")
        }
    }
}
