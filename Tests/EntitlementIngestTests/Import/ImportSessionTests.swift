import Foundation
import Testing
@testable import EntitlementImport
@testable import EntitlementIngest
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

/// import's run below the command line (`ImportSession`): documents in, outcomes out, and
/// what it reports to its observer; a dry run writes nothing, a failed document is reported
/// and the others go on, one real run writes each changed profile once.
@Suite(.tags(.unit))
struct ImportSessionTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let fixtures = repositoryRoot + "/Fixtures/import/revenuecat/"

    /// Everything an `ImportObserver` is told, in order.
    final class Recorder: ImportObserver {
        var events: [String] = []
        func progress(_ phase: String, _ count: Int, of total: Int) { events.append("\(phase) \(count)/\(total)") }
        func clearProgress() { events.append("clear") }
        func failed(_ error: EntitlementError) { events.append("failed: \(error.description)") }
        func warning(_ message: String) { events.append("warning: \(message)") }
    }

    static func makeStore(_ directory: TemporaryDirectory) throws -> EntitlementStore {
        let store = EntitlementStore(root: directory.path + "/store")
        try store.createDirectories()
        try store.lock.withLock { () throws(EntitlementError) in try store.saveConfiguration(ProductConfiguration(entitlements: [])) }
        return store
    }

    static func request(_ files: [String], dryRun: Bool) -> ImportSession.Request {
        ImportSession.Request(files: files, format: nil, user: "u1", at: now, verify: false, updateConfig: true, dryRun: dryRun)
    }

    static func profileFiles(_ store: EntitlementStore) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.root + "/profiles")) ?? []).sorted()
    }

    @Test func aDryRunMapsAndMergesButWritesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        let recorder = Recorder()
        var session = ImportSession(Self.request([Self.fixtures + "subscriber-active.json"], dryRun: true), store: store,
                                    observer: recorder, standardInput: { [] })
        let outcomes = try session.run(now: Self.now, jws: .decodeOnly) { () throws(EntitlementError) in
            Issue.record("a dry run asks for no commit author")
            return "nobody"
        }
        #expect(outcomes.count == 1 && outcomes[0].error == nil && outcomes[0].user == "u1")
        #expect(session.resultingProfiles.map(\.profile.customerUserID) == ["u1"])
        #expect(session.resultingConfiguration?.entitlements.isEmpty == false, "the document's product mappings are added")
        #expect(Self.profileFiles(store).isEmpty)
        #expect(recorder.events.first == "read 1/1" && recorder.events.contains("merge 1/1") && recorder.events.last == "clear")
    }

    @Test func aFailedDocumentIsReportedAndTheOthersAreWritten() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        let recorder = Recorder()
        let files = [Self.fixtures + "invalid-malformed.json", Self.fixtures + "subscriber-active.json"]
        var session = ImportSession(Self.request(files, dryRun: false), store: store, observer: recorder, standardInput: { [] })
        var askedForActor = 0
        let outcomes = try session.run(now: Self.now, jws: .decodeOnly) { () throws(EntitlementError) in
            askedForActor += 1
            return "dana"
        }
        #expect(outcomes.map { $0.error == nil } == [false, true])
        #expect(outcomes[0].error?.exitCode == .dataError)
        #expect(recorder.events.contains { $0.hasPrefix("failed: ") && $0.contains("invalid-malformed.json") })
        #expect(askedForActor == 1)
        #expect(Self.profileFiles(store).count == 1)
    }

    @Test func standardInputIsSplitIntoItsDocuments() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        let document = try #require(FileManager.default.contents(atPath: Self.fixtures + "subscriber-active.json"))
        let input = Array(document) + Array("\n".utf8) + Array(document)
        var session = ImportSession(Self.request(["-"], dryRun: true), store: store, observer: Recorder(), standardInput: { input })
        let outcomes = try session.run(now: Self.now, jws: .decodeOnly) { () throws(EntitlementError) in "dana" }
        #expect(outcomes.map(\.name) == ["<stdin>#1", "<stdin>#2"])
        #expect(outcomes.allSatisfy { $0.error == nil })
    }
}
