import Foundation
import Glibc
import Testing
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// An interrupted `migrate` is recorded (`.migration`), every other
/// reader of a missing profile and every writer refuses until `migrate` runs again, and no
/// move ever replaces a profile.
@Suite(.tags(.endToEnd))
struct MigrationInterruptionTests {
    static let users = ["alice@example.com", "bob@example.com", "carol@example.com", "dan@example.com"]

    /// A flat store whose customers each hold one grant (written with a fixed clock and ids).
    static func flatStore(in directory: TemporaryDirectory, users: [String] = users) throws -> String {
        let root = directory.path + "/template"
        #expect(runCLI(["init", "--store", root]).exitCode == 0)
        let store = EntitlementStore(root: root)
        try store.withWriteLock { () throws(EntitlementError) in
            for (number, user) in users.enumerated() {
                var profile = Profile(profileID: "p-\(number)", customerUserID: user, createdAt: demoDate)
                var grant = Transaction(transactionID: "g-\(number)", productID: nil, store: .manual, type: .manualGrant,
                                        purchasedAt: demoDate, expiresAt: demoDate.addingTimeInterval(86_400 * 30))
                grant.entitlement = "premium"
                grant.grantedAt = demoDate
                profile.transactions = [grant]
                try store.saveProfile(profile)
            }
        }
        return root
    }

    static func copy(_ template: String, to name: String, in directory: TemporaryDirectory) throws -> String {
        let root = directory.path + "/" + name
        try FileManager.default.copyItem(atPath: template, toPath: root)
        return root
    }

    /// Each customer's transaction ids, read with the layout config.json names.
    static func holdings(_ root: String, users: [String] = users) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for user in users { result[user] = (try? EntitlementStore(root: root).loadProfile(userID: user))??.transactions.map(\.transactionID) }
        return result
    }

    @Test func aCrashAtEveryStepIsRefusedThenFinishedByMigrate() throws {
        let directory = TemporaryDirectory()
        let template = try Self.flatStore(in: directory)
        let expected = Self.holdings(template)
        let counting = FaultyFileSystem()
        var countingStore = EntitlementStore(root: try Self.copy(template, to: "count", in: directory))
        countingStore.fileSystem = counting.fileSystem
        #expect(try LayoutMigration.migrate(countingStore, to: .fanout) == 2 * Self.users.count)
        #expect(Self.holdings(countingStore.root) == expected)
        let steps = counting.steps
        #expect(steps > 2 * 2 * Self.users.count)
        var interrupted = 0
        for step in 1...steps {
            let root = try Self.copy(template, to: "step-\(step)", in: directory)
            let faulty = FaultyFileSystem(failAt: step, fault: .crash)
            var store = EntitlementStore(root: root)
            store.fileSystem = faulty.fileSystem
            // A crash at the last steps (closing, removing emptied folders) can go unreported.
            _ = try? LayoutMigration.migrate(store, to: .fanout)
            if FileManager.default.fileExists(atPath: root + "/.migration") {
                interrupted += 1
                for user in Self.users {
                    // Never "no profile" for a customer that has one, never a second profile.
                    let status = runCLI(["status", user, "--store", root])
                    #expect(status.exitCode == 0 || (status.exitCode == 4 && status.stderr.contains("migration")), "step \(step): \(status.stderr)")
                    let grant = runCLI(["grant", user, "premium", "--duration", "7d", "--store", root])
                    #expect(grant.exitCode == 4 && grant.stderr.contains("migrate --layout fanout"), "step \(step): \(grant.stderr)")
                }
                #expect(runCLI(["find", "--store", root]).exitCode == 4)
            }
            // Running migrate again finishes it; nothing is lost or duplicated.
            #expect(runCLI(["migrate", "--layout", "fanout", "--store", root]).exitCode == 0, "step \(step)")
            #expect(!FileManager.default.fileExists(atPath: root + "/.migration"))
            #expect(Self.holdings(root) == expected, "step \(step)")
            #expect(try EntitlementStore(root: root).loadConfiguration().profileLayout == .fanout)
        }
        #expect(interrupted > Self.users.count)
    }

    @Test func aMoveNeverReplacesAProfile() throws {
        let directory = TemporaryDirectory()
        let root = try Self.flatStore(in: directory)
        // The state the old bug made: a second profile for alice where fanout puts it.
        let target = root + "/profiles/" + ProfileLayout.fanout.profileFile(for: "alice@example.com")
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let second = Data(#"{"schema_version": 1, "customer_user_id": "alice@example.com", "transactions": []}"#.utf8)
        try second.write(to: URL(fileURLWithPath: target))
        let original = try Data(contentsOf: URL(fileURLWithPath: root + "/profiles/alice@example.com.json"))
        let result = runCLI(["migrate", "--layout", "fanout", "--store", root, "--json"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("migration_collision"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == second)
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/profiles/alice@example.com.json")) == original)
        // Until it is settled, the store refuses writers.
        #expect(runCLI(["grant", "bob@example.com", "premium", "--duration", "7d", "--store", root]).exitCode == 4)
    }

    @Test func aRunKilledBetweenLinkAndUnlinkIsFinished() throws {
        let directory = TemporaryDirectory()
        let root = try Self.flatStore(in: directory)
        let expected = Self.holdings(root)
        let from = root + "/profiles/alice@example.com.json"
        let target = root + "/profiles/" + ProfileLayout.fanout.profileFile(for: "alice@example.com")
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(link(from, target) == 0)
        #expect(runCLI(["migrate", "--layout", "fanout", "--store", root]).exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: from))
        #expect(Self.holdings(root) == expected)
    }

    /// The real binary, killed with SIGKILL while it moves 400 profiles (seeded delays).
    @Test(.tags(.endToEnd)) func migrateKilledBySIGKILLLosesNothing() throws {
        guard Binary.exists else { return }
        let directory = TemporaryDirectory()
        let users = (0..<400).map { "user\($0)@example.com" }
        let template = try Self.flatStore(in: directory, users: users)
        let expected = Self.holdings(template, users: users)
        var random = SplitMix64(seed: 0x15)
        var interrupted = 0
        for round in 0..<5 {
            let root = try Self.copy(template, to: "round-\(round)", in: directory)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["migrate", "--layout", "fanout", "--store", root]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait for the marker (the moves have begun), then a little more, then kill.
            for _ in 0..<2_000 where !FileManager.default.fileExists(atPath: root + "/.migration") && process.isRunning { usleep(1_000) }
            usleep(useconds_t(random.next() % 30_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if FileManager.default.fileExists(atPath: root + "/.migration") {
                interrupted += 1
                let grant = try Binary.run(["grant", users[0], "premium", "--duration", "7d", "--store", root])
                #expect(grant.exitCode == 4 && grant.stderr.contains("interrupted"), "round \(round): \(grant.stderr)")
                for user in users.prefix(50) {
                    let status = runCLI(["status", user, "--store", root])
                    #expect(status.exitCode == 0 || status.exitCode == 4, "round \(round): \(status.stderr)")
                }
            }
            #expect(try Binary.run(["migrate", "--layout", "fanout", "--store", root]).exitCode == 0)
            #expect(Self.holdings(root, users: users) == expected, "round \(round)")
        }
        print("migrate SIGKILL: \(interrupted) of 5 rounds left a migration in progress")
    }
}
