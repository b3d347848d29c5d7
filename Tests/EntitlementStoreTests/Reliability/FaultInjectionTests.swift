import Foundation
import Glibc
import Testing
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Every step of a store write made to fail or to "crash", then the store checked:
/// nothing lost, nothing half-applied (docs/store-format.md, "Writes").
@Suite(.tags(.cli))
struct FaultInjectionTests {
    /// A store before and after one change, and the files that change touches.
    struct Scenario {
        let directory = TemporaryDirectory()
        let template: String
        let newConfiguration: ProductConfiguration
        let newProfiles: [Profile]
        let files = ["config.json", "profiles/alice.json", "profiles/bob.json"]
        var before: [String: [UInt8]] = [:]
        var after: [String: [UInt8]] = [:]

        init() throws {
            template = directory.path + "/template"
            #expect(runCLI(["init", "--store", template]).exitCode == 0)
            #expect(runCLI(["grant", "alice", "premium", "--duration", "7d", "--store", template]).exitCode == 0)
            let store = EntitlementStore(root: template)
            var configuration = try store.loadConfiguration()
            configuration.entitlements.append(.init(id: "gold", products: ["com.example.gold"]))
            newConfiguration = configuration
            // The new profiles come from a scratch copy, where the real CLI makes them.
            let scratch = directory.path + "/scratch"
            try FileManager.default.copyItem(atPath: template, toPath: scratch)
            #expect(runCLI(["grant", "alice", "premium", "--duration", "1m", "--store", scratch]).exitCode == 0)
            #expect(runCLI(["grant", "bob", "premium", "--duration", "7d", "--store", scratch]).exitCode == 0)
            let scratchStore = EntitlementStore(root: scratch)
            newProfiles = [try scratchStore.loadProfile(userID: "alice")!, try scratchStore.loadProfile(userID: "bob")!]
            before = Self.snapshot(template, files)
            after = before
            after["config.json"] = try store.configurationChange(newConfiguration).bytes
            after["profiles/alice.json"] = try store.profileChange(newProfiles[0]).bytes
            after["profiles/bob.json"] = try store.profileChange(newProfiles[1]).bytes
        }

        /// A fresh copy of the store before the change.
        func freshStore(_ name: String) throws -> EntitlementStore {
            let root = directory.path + "/\(name)"
            try FileManager.default.copyItem(atPath: template, toPath: root)
            return EntitlementStore(root: root)
        }

        static func snapshot(_ root: String, _ files: [String]) -> [String: [UInt8]] {
            var result: [String: [UInt8]] = [:]
            for file in files { result[file] = FileManager.default.contents(atPath: "\(root)/\(file)").map { Array($0) } }
            return result
        }
    }

    /// Runs `change` failing at each step in turn; after the next writer's recovery the
    /// store must hold all of the change or none of it, and all of it when no error was reported.
    func everyStep(_ scenario: Scenario, _ fault: FaultyFileSystem.Fault,
                   change: (EntitlementStore) throws(EntitlementError) -> Void) throws -> Int {
        let counting = FaultyFileSystem()
        var store = try scenario.freshStore("count")
        store.fileSystem = counting.fileSystem
        try store.withWriteLock { () throws(EntitlementError) in try change(store) }
        let steps = counting.steps
        #expect(steps > 10)
        print("fault injection: \(steps) steps, each failed with \(fault)")
        for step in 1...steps {
            let faulty = FaultyFileSystem(failAt: step, fault: fault)
            var store = try scenario.freshStore("step-\(step)")
            store.fileSystem = faulty.fileSystem
            var failed = false
            do {
                try store.withWriteLock { () throws(EntitlementError) in try change(store) }
            } catch {
                failed = true
            }
            #expect(faulty.fired)
            // The next writer, on a healthy system.
            try EntitlementStore(root: store.root).withWriteLock { () throws(EntitlementError) in }
            let state = Scenario.snapshot(store.root, scenario.files)
            let isBefore = state == scenario.before
            let isAfter = scenario.files.allSatisfy { file in scenario.after[file] == nil || state[file] == scenario.after[file] }
            #expect(isBefore || isAfter, "step \(step) of \(steps) (\(faulty.calls.last?.name ?? "?")): half-applied")
            if !failed { #expect(isAfter, "step \(step): reported success but the change is not there") }
            #expect((try? FileManager.default.contentsOfDirectory(atPath: store.root + "/.tmp"))?.isEmpty ?? true, "step \(step): staged files left")
            #expect(!FileManager.default.fileExists(atPath: store.root + "/.journal"), "step \(step): journal left")
        }
        return steps
    }

    @Test(arguments: [FaultyFileSystem.Fault.error(EIO), .error(ENOSPC), .crash])
    func importLikeChangeIsAllOrNothing(_ fault: FaultyFileSystem.Fault) throws {
        let scenario = try Scenario()
        let steps = try everyStep(scenario, fault) { (store) throws(EntitlementError) in
            _ = try store.save(configuration: scenario.newConfiguration, profiles: scenario.newProfiles)
        }
        #expect(steps >= 20)
    }

    @Test(arguments: [FaultyFileSystem.Fault.error(EIO), .crash])
    func singleProfileWriteIsAtomic(_ fault: FaultyFileSystem.Fault) throws {
        var scenario = try Scenario()
        let alice = scenario.after["profiles/alice.json"]
        scenario.after = scenario.before
        scenario.after["profiles/alice.json"] = alice
        _ = try everyStep(scenario, fault) { (store) throws(EntitlementError) in _ = try store.saveProfile(scenario.newProfiles[0]) }
    }

    @Test func shortWritesStillWriteEverything() throws {
        let scenario = try Scenario()
        let faulty = FaultyFileSystem(failAt: 1, fault: .shortWrites(3))
        var store = try scenario.freshStore("short")
        store.fileSystem = faulty.fileSystem
        try store.withWriteLock { () throws(EntitlementError) in
            _ = try store.save(configuration: scenario.newConfiguration, profiles: scenario.newProfiles)
        }
        #expect(Scenario.snapshot(store.root, scenario.files) == scenario.after)
    }

    /// Removing the directory fsync (or the file fsync) must fail this test.
    @Test func everyRenameIsPrecededByFileFsyncAndFollowedByDirectoryFsync() throws {
        let scenario = try Scenario()
        let recorder = FaultyFileSystem()
        var store = try scenario.freshStore("order")
        store.fileSystem = recorder.fileSystem
        try store.withWriteLock { () throws(EntitlementError) in
            _ = try store.save(configuration: scenario.newConfiguration, profiles: scenario.newProfiles)
        }
        let calls = recorder.calls
        let renames = calls.indices.filter { calls[$0].name == "rename" }
        #expect(renames.count >= 4)  // journal, config, two profiles (plus index entries)
        for index in renames {
            let target = calls[index].path
            let directory = (target as NSString).deletingLastPathComponent
            #expect(calls[(index + 1)...].contains { $0.name == "fsync" && $0.path == directory }, "no directory fsync after renaming \(target)")
        }
        let stagedFsyncs = calls.prefix(renames[0]).filter { $0.name == "fsync" && $0.path.contains("/.tmp/") }
        #expect(stagedFsyncs.count >= 3, "staged files must be fsynced before the journal commits them")
    }

    @Test func fullDiskNamesTheFileBeingReplaced() throws {
        let scenario = try Scenario()
        let counting = FaultyFileSystem()
        var store = try scenario.freshStore("count")
        store.fileSystem = counting.fileSystem
        try store.saveProfile(scenario.newProfiles[0])
        let firstWrite = counting.calls.firstIndex { $0.name == "write" }! + 1
        let faulty = FaultyFileSystem(failAt: firstWrite, fault: .error(ENOSPC))
        store = try scenario.freshStore("full")
        store.fileSystem = faulty.fileSystem
        #expect(throws: EntitlementError.io(path: store.root + "/profiles/alice.json",
                                            message: "cannot write: No space left on device (write); the file is unchanged")) {
            try store.saveProfile(scenario.newProfiles[0])
        }
    }

    @Test func aFailedIndexUpdateIsAWarningNotAFailure() throws {
        let scenario = try Scenario()
        let counting = FaultyFileSystem()
        var store = try scenario.freshStore("count")
        store.fileSystem = counting.fileSystem
        try store.saveProfile(scenario.newProfiles[1])
        let indexStep = counting.calls.firstIndex { $0.path.contains("index/profile-id") }! + 1
        store = try scenario.freshStore("full")
        store.fileSystem = FaultyFileSystem(failAt: indexStep, fault: .error(ENOSPC)).fileSystem
        let warnings = try store.saveProfile(scenario.newProfiles[1])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("index entry was not") == true)
        #expect(Scenario.snapshot(store.root, ["profiles/bob.json"])["profiles/bob.json"] == scenario.after["profiles/bob.json"])
        // The lookup by profile id still works: it falls back to a scan.
        let found = try EntitlementStore(root: store.root).loadProfile(profileID: scenario.newProfiles[1].profileID!)
        #expect(found?.customerUserID == "bob")
    }
}
