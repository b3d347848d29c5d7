import Foundation
import Testing
@testable import EntitlementIngest
@testable import EntitlementStore
import EntitlementTestSupport

/// Every file the tool writes and a team store commits is one the other clones accept: the
/// writers (grant, ingest of every kind of record) and the committed layout (`StoreFileKind`,
/// which the incoming-tree check uses) are held together here. Real git, a bare remote, the
/// built binary.
@Suite(.tags(.endToEnd), .timeLimit(.minutes(10)), .enabled(if: Binary.exists, "needs the built binary"))
struct TeamStoreLayoutTests {
    typealias F = IngestFixtures

    /// A two-clone team store with `monthly` → premium, and secrets for RevenueCat, the App
    /// Store (the test chain) and Google Play.
    static func team() throws -> (team: TeamFixture, secrets: String) {
        let team = try TeamFixture.team(of: 2)
        writeFile(team.store("s0") + "/config.json", F.config)
        try team.git(["commit", "--quiet", "-am", "monthly"], in: "s0")
        let root = team.directory.path + "/test-root.der"
        _ = FileManager.default.createFile(atPath: root, contents: Data(F.chain.root.der))
        let secrets = team.directory.path + "/secrets.json"
        writeFile(secrets, F.json(["revenuecat": ["authorization": F.secret], "googleplay": ["push_token": "push-secret"],
                                   "appstore": ["bundle_id": "com.example", "trust_roots": [root]]]))
        chmod(secrets, 0o600)
        return (team, secrets)
    }

    static func ingest(_ team: TeamFixture, _ bodies: [String], secrets: String, in name: String = "s0") throws -> CLIResult {
        try Binary.run(["ingest", "--stdin", "--store", team.store(name), "--secrets", secrets], stdin: bodies.joined(separator: "\n") + "\n",
                       environment: team.environment)
    }

    @Test func aGooglePlayNotificationReachesEveryClone() throws {
        let (team, secrets) = try Self.team()
        let applied = try Self.ingest(team, [GooglePlayNotificationTests.subscription(2)], secrets: secrets)
        #expect(applied.exitCode == 0, "\(applied.stdout) \(applied.stderr)")
        let record = AwaitingPurchase.relativePath(token: "gp-token-active")
        #expect(try team.git(["ls-files", "--", record], in: "s0").stdout == record + "\n", "the record is committed")
        let pushed = try team.run(["sync"], in: "s0")
        #expect(pushed.exitCode == 0, "\(pushed.stderr)")
        let pulled = try team.run(["sync"], in: "s1")
        #expect(pulled.exitCode == 0, "\(pulled.stderr)")
        #expect(readFile(team.store("s1") + "/" + record) == readFile(team.store("s0") + "/" + record))
        let status = try Binary.run(["ingest", "--status", "--store", team.store("s1"), "--secrets", secrets], environment: team.environment)
        #expect(status.stdout.contains("gp-token-active"), "\(status.stdout)")
        let clone = try Binary.run(["clone", team.remote, "--store", team.store("s2")], environment: team.environment)
        #expect(clone.exitCode == 0, "\(clone.stderr)")
    }

    /// Every writer on one clone; every committed path has a kind, every kind is written, and the
    /// other clone takes it all.
    @Test func everyCommittedFileIsOfTheDeclaredLayout() throws {
        let (team, secrets) = try Self.team()
        #expect(try team.run(["grant", "bob", "premium", "--duration", "30d", "--reason", "layout"], in: "s0").exitCode == 0)
        let bodies = [
            F.revenueCat("INITIAL_PURCHASE", id: "rc1", at: 0, extra: ["aliases": ["$RCAnonymousID:1"]]),
            F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0),
            F.appStore("DID_RENEW", uuid: "n2", signedAt: 30, transaction: ["transactionId": "1001", "purchaseDate": F.base + 30 * F.day,
                                                                           "expiresDate": F.base + 60 * F.day, "appAccountToken": NSNull()]),
            GooglePlayNotificationTests.subscription(2),
        ]
        for body in bodies {
            let result = try Self.ingest(team, [body], secrets: secrets)
            #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        }
        let files = try team.git(["ls-files", "-z"], in: "s0").stdout.split(separator: "\0").map(String.init)
        var kinds: Set<StoreFileKind> = []
        for path in files where ![".gitattributes", ".gitignore"].contains(path) {
            let kind = StoreFileKind.kind(of: path)
            #expect(kind != nil, "\(path) is committed but not of the declared layout")
            if let kind { kinds.insert(kind) }
        }
        #expect(kinds == Set(StoreFileKind.allCases), "a declared kind no writer wrote: \(Set(StoreFileKind.allCases).subtracting(kinds))")
        #expect(try team.settledStatus(in: "s0") == "")
        #expect(try team.run(["sync"], in: "s0").exitCode == 0)
        let pulled = try team.run(["sync"], in: "s1")
        #expect(pulled.exitCode == 0, "\(pulled.stderr)")
        #expect(try team.head("s1") == team.head("s0"))
        #expect(try team.run(["verify"], in: "s1").exitCode == 0)
    }
}

extension TeamStoreLayoutTests {
    /// The same Google Play document imported again commits nothing.
    @Test func reimportingAPlayDocumentCommitsNothing() throws {
        let (team, secrets) = try Self.team()
        writeFile(team.store("s0") + "/config.json", readFile(repositoryRoot + "/Fixtures/import/config.json")!)
        try team.git(["commit", "--quiet", "-am", "play products"], in: "s0")
        #expect(try Self.ingest(team, [GooglePlayNotificationTests.subscription(2)], secrets: secrets).exitCode == 0)
        let document = repositoryRoot + "/Fixtures/import/googleplay/purchase-active.json"
        #expect(try team.run(["import", document, "--at", "2026-03-15T12:05:00Z"], in: "s0").exitCode == 0)
        let head = try team.head("s0")
        let again = try team.run(["import", document, "--at", "2026-03-16T08:00:00Z"], in: "s0")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try team.head("s0") == head, "a second import of the same document made a commit")
        #expect(try team.settledStatus(in: "s0") == "")
    }
}
