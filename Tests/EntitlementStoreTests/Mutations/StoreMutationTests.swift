import Foundation
import Glibc
import Testing
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

/// The manual mutations below the command line (`EntitlementStore/Mutations/`): what grant,
/// revoke and restore return, and their one write (`EntitlementStore.mutate`): a dry run
/// writes nothing, a real run holds the writer lock, a failed save changes nothing.
@Suite(.tags(.unit))
struct StoreMutationTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let configuration = ProductConfiguration(entitlements: [.init(id: "premium", products: ["com.example.monthly"])])

    /// A new store with `premium` configured.
    static func makeStore(_ directory: TemporaryDirectory, lockTimeout: Double = EntitlementStore.defaultLockTimeout) throws -> EntitlementStore {
        let store = EntitlementStore(root: directory.path + "/store", lockTimeout: lockTimeout)
        try store.createDirectories()
        try store.lock.withLock { () throws(EntitlementError) in try store.saveConfiguration(configuration) }
        return store
    }

    /// Every file of the store but the lock file and the staging folder, with its bytes.
    static func snapshot(_ store: EntitlementStore) -> [String: Data] {
        var files: [String: Data] = [:]
        let root = URL(fileURLWithPath: store.root)
        guard let walk = FileManager.default.enumerator(atPath: store.root) else { return files }
        while let relative = walk.nextObject() as? String {
            guard !relative.hasPrefix(EntitlementStore.stagingDirectory), relative != ".lock" else { continue }
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path) { files[relative] = data }
        }
        return files
    }

    static func grant(_ user: String, id: String = "1") -> GrantMutation {
        GrantMutation(request: GrantRequest(userID: user, entitlement: "premium", term: .duration(GrantDuration.parse("1m")!!), reason: "test", actor: "dana"),
                      now: now, transactionID: "manual-\(id)")
    }

    static var engine: StatusEngine { StatusEngine(configuration: configuration) }

    @Test func grantRevokeAndRestoreReturnWhatTheyDid() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        let granted = try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: false)
        #expect(granted.grant.changed && granted.grant.createdProfile)
        #expect(granted.grant.transaction.transactionID == "manual-1")
        #expect(granted.level.isActive)
        #expect(granted.warnings.isEmpty)
        #expect(try store.loadProfile(userID: "alice")?.transaction(id: "manual-1") != nil)

        let second = try Self.grant("alice", id: "2").run(in: store, engine: Self.engine, dryRun: false)
        #expect(second.grant.changed && !second.grant.createdProfile)
        #expect(second.grant.extendsTransactionID == "manual-1", "a --duration grant stacks on the open one")

        let revoke = RevokeMutation(userID: "alice", request: RevokeRequest(entitlement: "premium", reason: "mistake", actor: "dana"), now: Self.now)
        let revoked = try revoke.run(in: store, engine: Self.engine, dryRun: false)
        #expect(Set(revoked.revoked) == ["manual-1", "manual-2"])
        #expect(revoked.levelBefore.isActive && !revoked.level.isActive)
        #expect(revoked.before.transaction(id: "manual-1")?.revokedAt == nil)
        #expect(revoked.alsoAffected.isEmpty)
        #expect(try store.loadProfile(userID: "alice")?.transaction(id: "manual-1")?.revokedAt != nil)

        let nothing = try revoke.run(in: store, engine: Self.engine, dryRun: false)
        #expect(nothing.revoked.isEmpty)

        let restore = RestoreMutation(userID: "alice", request: RestoreRequest(entitlement: "premium", reason: "undo", actor: "dana"), now: Self.now)
        let restored = try restore.run(in: store, engine: Self.engine, dryRun: false)
        #expect(Set(restored.restored) == Set(revoked.revoked))
        #expect(restored.level.isActive)
        #expect(try store.loadProfile(userID: "alice")?.transaction(id: "manual-1")?.revokedAt == nil)
    }

    /// The entitlement check restore shares with revoke: a typo is an error, not "nothing to do".
    @Test func revokeAndRestoreRefuseAnUnknownEntitlementAndAnUnknownCustomer() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        _ = try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: false)
        let before = Self.snapshot(store)
        #expect(throws: EntitlementError.self) {
            try RevokeMutation(userID: "alice", request: RevokeRequest(entitlement: "premum", actor: "dana"), now: Self.now)
                .run(in: store, engine: Self.engine, dryRun: false)
        }
        do {
            _ = try RestoreMutation(userID: "alice", request: RestoreRequest(entitlement: "premum", reason: "r", actor: "dana"), now: Self.now)
                .run(in: store, engine: Self.engine, dryRun: false)
            Issue.record("restore of an unknown entitlement succeeded")
        } catch {
            guard case .unknownEntitlement(let unknown) = error else { Issue.record("\(error)"); return }
            #expect(unknown.known.contains("premium"))
        }
        do {
            _ = try RestoreMutation(userID: "bob", request: RestoreRequest(entitlement: "premium", reason: "r", actor: "dana"), now: Self.now)
                .run(in: store, engine: Self.engine, dryRun: false)
            Issue.record("restore for an unknown customer succeeded")
        } catch {
            #expect(error == .unknownUser("bob"))
        }
        #expect(Self.snapshot(store) == before)
    }

    @Test func aDryRunWritesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        _ = try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: false)
        let before = Self.snapshot(store)
        let planned = try Self.grant("bob", id: "2").run(in: store, engine: Self.engine, dryRun: true)
        #expect(planned.grant.changed && planned.grant.createdProfile && planned.level.isActive)
        let revoked = try RevokeMutation(userID: "alice", request: RevokeRequest(entitlement: "premium", actor: "dana"), now: Self.now)
            .run(in: store, engine: Self.engine, dryRun: true)
        #expect(revoked.revoked == ["manual-1"] && !revoked.level.isActive)
        #expect(Self.snapshot(store) == before, "a dry run changed the store")
        #expect(try store.loadProfile(userID: "bob") == nil)
    }

    /// A real run waits for the writer lock (and gives up after the timeout); a dry run takes none.
    @Test func aRealRunTakesTheWriterLock() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory, lockTimeout: 0.2)
        let before = Self.snapshot(store)
        try store.lock.withLock { () throws(EntitlementError) in
            do {
                _ = try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: false)
                Issue.record("the grant wrote while another writer held the lock")
            } catch {
                guard case .busy? = error as? EntitlementError else { Issue.record("\(error)"); return }
            }
            #expect(try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: true).grant.changed)
        }
        #expect(Self.snapshot(store) == before)
        #expect(try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: false).grant.changed)
    }

    /// The save fails (every rename refused): the error comes back and the store is as it was.
    @Test func aFailingSaveLeavesTheStoreUnchanged() throws {
        let directory = TemporaryDirectory()
        var store = try Self.makeStore(directory)
        _ = try Self.grant("alice").run(in: store, engine: Self.engine, dryRun: false)
        let before = Self.snapshot(store)
        var failing = FileSystem.system
        failing.rename = { _, _ in errno = EIO; return -1 }
        store.fileSystem = failing
        #expect(throws: EntitlementError.self) { try Self.grant("alice", id: "2").run(in: store, engine: Self.engine, dryRun: false) }
        #expect(throws: EntitlementError.self) {
            try RevokeMutation(userID: "alice", request: RevokeRequest(entitlement: "premium", actor: "dana"), now: Self.now)
                .run(in: store, engine: Self.engine, dryRun: false)
        }
        store.fileSystem = .system
        #expect(Self.snapshot(store) == before)
        #expect(try store.loadProfile(userID: "alice")?.transactions.map(\.transactionID) == ["manual-1"])
        #expect(try store.loadProfile(userID: "alice")?.transaction(id: "manual-1")?.revokedAt == nil)
    }
}
