import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

/// Three clones make random grants (keyed, stacked), revokes (some with --include-store),
/// restores, new customers and imports on a
/// shared set of profiles, with syncs in random order. After every clone has synced twice,
/// all are byte-identical and every change that exited 0 is there.
/// `make stress` (ENTITLEMENT_STRESS=1) runs more seeds and more operations.
/// Seeds run in parallel: each has its own remote and clones.
@Suite(.tags(.endToEnd), .enabled(if: Binary.exists))
struct TeamStoreConvergenceTests {
    static var stress: Bool { ProcessInfo.processInfo.environment["ENTITLEMENT_STRESS"] == "1" }
    static let seeds: [UInt64] = stress ? [1, 2, 3, 4, 5, 6, 7, 8] : [20_260_115]
    static var operations: Int { stress ? 150 : 48 }

    @Test(arguments: seeds)
    func clonesConverge(seed: UInt64) throws {
        let team = try TeamFixture.team(of: 3)
        var random = SplitMix64(seed: seed)
        let users = ["alice@example.com", "bob", "José Ñ", "carol"]
        var granted: Set<String> = [], revoked: Set<String> = []
        var succeeded = 0
        var createdIDs: Set<String> = []
        func profileID(_ result: CLIResult) throws -> String {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return try #require(object?["profile_id"] as? String)
        }
        for step in 0..<Self.operations {
            let clone = "s\(random.next() % 3)"
            let user = users[Int(random.next() % UInt64(users.count))]
            switch random.next() % 7 {
            case 0, 1:
                let entitlement = random.next() % 2 == 0 ? "premium" : "sports"
                var arguments = ["grant", user, entitlement, "--duration", "\(1 + random.next() % 30)d", "--reason", "step \(step)", "--json"]
                if random.next() % 4 == 0 { arguments += ["--idempotency-key", "key-\(user)-\(entitlement)"] }
                let result = try team.run(arguments, in: clone)
                guard result.exitCode == 0 else { Issue.record("grant failed: \(result.stderr)"); continue }
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                if object?["changed"] as? Bool == true, let transaction = object?["transaction"] as? [String: Any], let id = transaction["transaction_id"] as? String {
                    granted.insert(id)
                }
                succeeded += 1
            case 2, 3:
                var arguments = ["revoke", user, random.next() % 3 == 0 ? "sports" : "premium", "--reason", "step \(step)", "--yes", "--json"]
                if random.next() % 2 == 0 { arguments.append("--include-store") }
                let result = try team.run(arguments, in: clone)
                guard result.exitCode == 0 else { continue }  // no profile here yet (exit 3) is fine
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                for transaction in object?["revoked"] as? [[String: Any]] ?? [] {
                    if let id = transaction["transaction_id"] as? String { revoked.insert(id) }
                }
                succeeded += 1
            case 4 where random.next() % 2 == 0:
                // A restore of the latest revocation, or a new customer on this clone.
                if random.next() % 2 == 0 {
                    let result = try team.run(["restore", user, "premium", "--reason", "step \(step)"], in: clone)
                    if result.exitCode == 0 { succeeded += 1 }
                } else {
                    let result = try team.run(["grant", "new-\(step % 5)", "premium", "--duration", "1w", "--reason", "step \(step)", "--json"], in: clone)
                    #expect(result.exitCode == 0, "\(result.stderr)")
                    if result.exitCode == 0 { succeeded += 1; createdIDs.insert(try profileID(result)) }
                }
            case 4:
                let id = "20000\(seed)\(step)"
                let result = try team.run(["import", "-", "--update-config"], in: clone, stdin: revenueCatDocument(user: user, transactionID: id))
                #expect(result.exitCode == 0, "\(result.stderr)")
                if result.exitCode == 0 { granted.insert(id); succeeded += 1 }
            default:
                let result = try team.run(["sync"], in: clone)
                #expect(result.exitCode == 0, "\(result.stderr)")
            }
        }
        for _ in 0..<2 {
            for clone in ["s0", "s1", "s2"] {
                let result = try team.run(["sync"], in: clone)
                #expect(result.exitCode == 0, "\(result.stderr)")
            }
        }
        let reference = team.snapshot("s0")
        #expect(team.snapshot("s1") == reference)
        #expect(team.snapshot("s2") == reference)
        #expect(try team.head("s1") == team.head("s0"))
        #expect(try team.settledStatus(in: "s2").isEmpty)
        // verify is clean everywhere, and every profile id a grant gave out still resolves.
        for clone in ["s0", "s1", "s2"] {
            let verify = try team.run(["verify"], in: clone)
            #expect(verify.exitCode == 0, "\(clone): \(verify.stdout)\(verify.stderr)")
        }
        for id in createdIDs { #expect(try team.run(["status", "--profile-id", id], in: "s1").exitCode == 0, "profile id \(id)") }
        // Every transaction a command reported is there; every revocation stayed.
        var seen: Set<String> = [], seenRevoked: Set<String> = []
        for user in users {
            let result = try team.run(["history", user, "--json"], in: "s0")
            guard result.exitCode == 0 else { continue }
            for event in try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? [] {
                guard let id = event["transaction_id"] as? String else { continue }
                seen.insert(id)
                if event["event"] as? String == "revocation" { seenRevoked.insert(id) }
                // Every event names its commit; a duplicate-key revocation names the merge commit that made it.
                #expect(event["commit"] is [String: Any], "no commit for \(event["event"] ?? "?") of \(id) (actor \(event["actor"] ?? "-"))")
            }
        }
        #expect(granted.isSubset(of: seen), "lost: \(granted.subtracting(seen))")
        // The documented rules: one idempotency key gives access at most once from the merge on.
        for user in users {
            guard let text = try? String(contentsOfFile: try team.run(["path", user], in: "s0").stdout.trimmingCharacters(in: .whitespacesAndNewlines), encoding: .utf8),
                  let profile = try? Profile(json: JSONParser.parse(Array(text.utf8))) else { continue }
            let keyed = Dictionary(grouping: profile.transactions.filter { $0.idempotencyKey != nil }, by: { $0.idempotencyKey! })
            for (key, group) in keyed where group.count > 1 {
                #expect(group.filter { $0.revokedAt == nil }.count <= 1, "\(user): key \(key) gives access twice")
            }
        }
        #expect(revoked.isSubset(of: seenRevoked), "unrevoked: \(revoked.subtracting(seenRevoked))")
        #expect(succeeded > Self.operations / 3)
        print("convergence seed \(seed): \(Self.operations) steps, \(succeeded) changes exited 0, \(granted.count) transactions, \(revoked.count) revocations")
    }
}
