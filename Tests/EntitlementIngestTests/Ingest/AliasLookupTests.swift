import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// A customer found by any of its ids (RevenueCat `aliases`, `original_app_user_id`) through
/// the alias index: `check`, `status`, `history`, `verify`, in a plain store.
@Suite(.tags(.cli))
struct AliasLookupTests {
    typealias F = IngestFixtures

    /// alice, also known as `$RCAnonymousID:1` and `old-alice`.
    static func store(in directory: TemporaryDirectory, layout: String? = nil) -> String {
        let (store, secrets) = F.store(in: directory)
        if let layout { #expect(runCLI(["migrate", "--layout", layout, "--store", store]).exitCode == 0) }
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0, extra: ["aliases": ["$RCAnonymousID:1", "alice"], "original_app_user_id": "old-alice"])
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body).exitCode == 0)
        return store
    }

    static let at = "2026-01-10T00:00:00Z"

    @Test(arguments: [nil, "fanout"])
    func checkStatusAndHistoryFindTheCanonicalCustomer(_ layout: String?) throws {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory, layout: layout)
        for alias in ["old-alice", "$RCAnonymousID:1"] {
            let check = runCLI(["check", alias, "premium", "--at", Self.at, "--json", "--store", store])
            #expect(check.exitCode == 0, "\(check.stderr)")
            #expect(check.stdout.contains("\"customer_user_id\": \"alice\""), "\(check.stdout)")
            let line = runCLI(["check", alias, "premium", "--at", Self.at, "--store", store])
            #expect(line.exitCode == 0 && line.stdout.hasPrefix("alice "), "\(line.stdout)")
            #expect(runCLI(["check", alias, "--strict", "--at", Self.at, "--store", store]).exitCode == 0)
            let status = runCLI(["status", alias, "--json", "--at", Self.at, "--store", store])
            #expect(status.exitCode == 0 && status.stdout.contains("\"customer_user_id\": \"alice\""), "\(status.stdout)")
            let history = runCLI(["history", alias, "--json", "--store", store])
            #expect(history.exitCode == 0 && history.stdout.contains("\"customer_user_id\": \"alice\""), "\(history.stdout)")
        }
        let entry = layout == nil ? store + "/index/alias/old-alice" : EntitlementStore(root: store).aliasIndexPath(for: "old-alice")
        #expect(readFile(entry) == "alice")
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test(arguments: ["jsonl", "csv"])
    func checkStdinAnswersAnAliasForItsCustomer(_ format: String) {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        let result = runCLI(["check", "--stdin", "premium", "--at", Self.at, "--output", format, "--store", store], stdin: "old-alice\nalice\nstranger\n")
        #expect(result.exitCode == 1)  // stranger
        let lines = result.stdout.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("customer_user_id") }
        #expect(lines.count == 3)
        if format == "jsonl" {
            #expect(lines[0].contains("\"customer_user_id\":\"alice\"") && lines[0].contains("\"line\":1") && lines[0].contains("\"is_active\":true"), "\(lines[0])")
        } else {
            #expect(lines[0].hasPrefix("alice,premium,active,true"), "\(lines[0])")
        }
        #expect(lines[2].contains("stranger"))
    }

    @Test func aCustomersOwnIdWinsOverAnotherCustomersAlias() {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        #expect(runCLI(["grant", "old-alice", "premium", "--duration", "1w", "--reason", "r", "--store", store]).exitCode == 0)
        let check = runCLI(["check", "old-alice", "premium", "--json", "--store", store])
        #expect(check.stdout.contains("\"customer_user_id\": \"old-alice\"") && check.stdout.contains("\"grant_type\": \"manual\""), "\(check.stdout)")
        #expect(runCLI(["status", "old-alice", "--json", "--store", store]).stdout.contains("\"customer_user_id\": \"old-alice\""))
    }

    @Test func unknownIdsStayUnknown() {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        #expect(runCLI(["check", "stranger", "--at", Self.at, "--store", store]).exitCode == 1)
        #expect(runCLI(["check", "stranger", "--strict", "--at", Self.at, "--store", store]).exitCode == 3)
        #expect(runCLI(["status", "stranger", "--store", store]).exitCode == 3)
        #expect(runCLI(["history", "stranger", "--store", store]).exitCode == 3)
    }

    /// An entry is trusted only when the profile it names still lists the alias.
    @Test func aStaleEntryIsIgnored() {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        writeFile(store + "/index/alias/someone-else", "alice")
        #expect(runCLI(["check", "someone-else", "--strict", "--at", Self.at, "--store", store]).exitCode == 3)
        writeFile(store + "/index/alias/ghost", "nobody")
        #expect(runCLI(["status", "ghost", "--store", store]).exitCode == 3)
    }

    struct Broken: CustomTestStringConvertible, Sendable {
        var name: String
        var path: String
        var contents: String
        var message: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Broken(name: "names no profile", path: "index/alias/ghost", contents: "nobody", message: "points nowhere: no profile file"),
        Broken(name: "names a profile without that alias", path: "index/alias/someone-else", contents: "alice", message: "does not list this alias"),
        Broken(name: "empty", path: "index/alias/old-alice", contents: "", message: "unreadable alias index entry"),
        Broken(name: "misplaced", path: "index/alias/ab/cd/old-alice", contents: "alice", message: "misplaced alias index entry"),
    ])
    func verifyCatchesABrokenEntry(_ broken: Broken) throws {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        try FileManager.default.createDirectory(atPath: PathName.directory(of: store + "/" + broken.path), withIntermediateDirectories: true)
        writeFile(store + "/" + broken.path, broken.contents)
        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode == 4)
        #expect(verify.stdout.contains(broken.path) && verify.stdout.contains(broken.message), "\(verify.stdout)")
    }

    @Test func verifyCatchesAnAliasWithoutItsEntry() throws {
        let directory = TemporaryDirectory()
        let store = Self.store(in: directory)
        try FileManager.default.removeItem(atPath: store + "/index/alias/old-alice")
        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode == 4)
        #expect(verify.stdout.contains("profiles/alice.json") && verify.stdout.contains("alias 'old-alice' has no index entry"), "\(verify.stdout)")
        #expect(runCLI(["check", "old-alice", "--strict", "--store", store]).exitCode == 3)
    }

    @Test func theEntryIsWrittenInTheProfilesJournal() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        var profile = Profile(profileID: "p1", customerUserID: "alice", createdAt: demoDate)
        profile.raw[IngestRecordKeys.aliases] = .array([.string("old-alice"), .string("alice"), .string("")])
        let faulty = FaultyFileSystem()
        var storeValue = EntitlementStore(root: store)
        storeValue.fileSystem = faulty.fileSystem
        try storeValue.withWriteLock { () throws(EntitlementError) in _ = try storeValue.save(configuration: nil, profiles: [profile]) }
        // One journal renames the profile and its alias entry (the profile-id index follows on its own).
        let renames = faulty.calls.filter { $0.name == "rename" }.map { PathName.base(of: $0.path) }
        let journal = try #require(renames.firstIndex(of: ".journal"))
        #expect(renames[(journal + 1)...].prefix(2).sorted() == ["alice.json", "old-alice"], "\(renames)")
        #expect(readFile(store + "/index/alias/old-alice") == "alice")
        #expect(!FileManager.default.fileExists(atPath: store + "/index/alias/alice"))
    }
}
