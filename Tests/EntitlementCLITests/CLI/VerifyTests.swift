import Foundation
import Testing
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `verify`: every problem of a store, and never a write.
@Suite(.tags(.cli))
struct VerifyTests {
    /// Every store in the repository (a directory with config.json) passes.
    @Test func everyFixtureStorePasses() throws {
        let fixtures = repositoryRoot + "/Fixtures"
        let enumerator = try #require(FileManager.default.enumerator(atPath: fixtures))
        var stores: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix("/config.json") else { continue }
            stores.append(fixtures + "/" + (path as NSString).deletingLastPathComponent)
        }
        #expect(stores.contains(demoStorePath))
        for store in stores {
            let result = runCLI(["verify", "--store", store])
            #expect(result.exitCode == 0, "\(store): \(result.stdout)")
        }
    }

    /// A store with one of each problem, written by hand.
    static func brokenStore(in directory: TemporaryDirectory) -> String {
        let store = directory.store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["com.example.monthly"]}}}"#)
        writeFile(store + "/profiles/syntax.json", "{\n  \"customer_user_id\": \"syntax\",\n  \"transactions\": [,]\n}\n")
        writeFile(store + "/profiles/newer.json", #"{"schema_version": 3, "customer_user_id": "newer"}"#)
        writeFile(store + "/profiles/wrong-name.json", #"{"customer_user_id": "someone-else"}"#)
        writeFile(store + "/profiles/many.json", """
            {"customer_user_id": "many", "transactions": [
              {"transaction_id": "t1", "product_id": "com.example.monthly", "store": "app_store", "type": "subscription_started",
               "purchased_at": "2026-01-10T00:00:00Z", "expires_at": "2026-01-01T00:00:00Z"},
              {"transaction_id": "t1", "product_id": "com.example.unknown", "store": "app_store", "type": "subscription_started",
               "purchased_at": "2026-01-10T00:00:00Z", "expires_at": "2026-02-10T00:00:00Z"},
              {"transaction_id": "g1", "type": "manual_grant", "entitlement": "vip", "purchased_at": "2026-01-10T00:00:00Z"}
            ]}
            """)
        try! FileManager.default.createDirectory(atPath: store + "/index/profile-id", withIntermediateDirectories: true)
        writeFile(store + "/index/profile-id/p-404", "ghost")
        writeFile(store + "/profiles/.many.json.tmp-123-456", "{")
        return store
    }

    @Test func reportsEveryProblemOfABrokenStore() {
        let directory = TemporaryDirectory()
        let store = Self.brokenStore(in: directory)
        let before = try! FileManager.default.subpathsOfDirectory(atPath: store).sorted()
        let result = runCLI(["verify", "--store", store])
        #expect(result.exitCode == 4)
        expectGolden(result.stdout.replacingOccurrences(of: store, with: "STORE"), named: "verify-broken.txt")
        let json = runCLI(["verify", "--store", store, "--json"])
        #expect(json.exitCode == 4)
        expectGolden(json.stdout.replacingOccurrences(of: store, with: "STORE"), named: "verify-broken.json")
        #expect(try! FileManager.default.subpathsOfDirectory(atPath: store).sorted() == before, "verify never writes")
        #expect(runCLI(["verify", "--store", store, "--quiet"]).stdout.isEmpty)
    }

    @Test func aBrokenConfigurationIsAProblemNotACrash() {
        let directory = TemporaryDirectory()
        let store = directory.store(config: #"{"schema_version": 1, "entitlements": ["#)
        let result = runCLI(["verify", "--store", store, "--json"])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains("config.json"))
        #expect(result.stdout.contains("line 1, column"))
        #expect(runCLI(["verify", "--store", directory.path + "/none"]).exitCode == 4)
    }

    @Test func anInterruptedWriteIsReported() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        try! FileManager.default.createDirectory(atPath: store + "/.tmp", withIntermediateDirectories: true)
        writeFile(store + "/.tmp/alice.json.1-2", "{")
        writeFile(store + "/.journal", "{}")
        let result = runCLI(["verify", "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains("staged file of an interrupted write; the next write removes it"))
        #expect(result.stdout.contains("unusable journal"))
        #expect(result.stdout.contains("every write will fail until it is fixed or removed"))
        #expect(!result.stdout.contains("the next write completes it"))
    }

    @Test func aValidJournalsStagedFileIsInstalledByTheNextWrite() {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        try! FileManager.default.createDirectory(atPath: store + "/.tmp", withIntermediateDirectories: true)
        writeFile(store + "/.tmp/alice.json.1-2", "{}")
        writeFile(store + "/.tmp/orphan.1-3", "{}")
        writeFile(store + "/.journal", #"{"renames": [{"from": ".tmp/alice.json.1-2", "to": "profiles/alice.json"}]}"#)
        let result = runCLI(["verify", "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains("/.tmp/alice.json.1-2: staged file of an interrupted write; the next write installs it"))
        #expect(result.stdout.contains("/.tmp/orphan.1-3: staged file of an interrupted write; the next write removes it"))
        #expect(result.stdout.contains("/.journal: journal of an interrupted multi-file write; the next write completes it"))
    }

    @Test func linkedDirectoriesAndReadOnlyProfilesAreReported() throws {
        let directory = TemporaryDirectory()
        let store = directory.copyOfDemoStore()
        let real = directory.path + "/real-profiles"
        try FileManager.default.moveItem(atPath: store + "/profiles", toPath: real)
        try FileManager.default.createSymbolicLink(atPath: store + "/profiles", withDestinationPath: real)
        let alice = real + "/active-renewing.json"
        #expect(chmod(alice, 0o444) == 0)
        let result = runCLI(["verify", "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains(store + "/profiles: is a symbolic link; reads follow it but every write refuses it"))
        #expect(result.stdout.contains("active-renewing.json: is read-only (mode 0444); writes to this profile will fail"))
        let grant = runCLI(["grant", "bob", "premium", "--duration", "1d", "--store", store])
        #expect(grant.exitCode == 4 && grant.stderr.contains("symbolic link"), "writers refuse the link: \(grant.stderr)")
    }

    @Test func aFIFOIsNamedOnceAndOneProfileIsSingular() {
        let directory = TemporaryDirectory()
        let store = directory.store(config: #"{"schema_version": 1, "entitlements": {}}"#)
        let fifo = store + "/profiles/p.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = runCLI(["verify", "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains(fifo + ": is not a regular file"))
        #expect(!result.stdout.contains(fifo + ": " + fifo))
        #expect(result.stdout.contains("(1 profile checked)"))
        unlink(fifo)
        writeFile(fifo, #"{"schema_version": 1.5, "customer_user_id": "p"}"#)
        #expect(runCLI(["verify", "--store", store]).stdout.contains("expected a whole number, found 1.5"))
    }
}

/// `verify`'s likely-typo rules for hand-written transactions.
@Suite(.tags(.cli))
struct VerifyTypoTests {
    @Test func aMisspelledExpiryAndAnUnknownTypeAreProblems() {
        let directory = TemporaryDirectory()
        let store = directory.store()
        writeFile(store + "/profiles/typo.json", """
            {"customer_user_id": "typo", "transactions": [
              {"transaction_id": "t1", "product_id": "com.example.monthly", "store": "app_store", "type": "subscription_started",
               "purchased_at": "2026-01-10T00:00:00Z", "expire_at": "2026-02-10T00:00:00Z"},
              {"transaction_id": "t2", "product_id": "com.example.monthly", "store": "app_store", "type": "subscription_renwed",
               "purchased_at": "2026-01-10T00:00:00Z", "expires_at": "2026-02-10T00:00:00Z", "vendor_note": "far from every key"}
            ]}
            """)
        let result = runCLI(["verify", "--store", store])
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains("transactions[0].expire_at: unknown field 'expire_at'; did you mean 'expires_at'?"))
        #expect(result.stdout.contains("transactions[0].expires_at: a subscription_started transaction without expires_at never expires"))
        #expect(result.stdout.contains("transactions[1].type: unknown transaction type 'subscription_renwed'; did you mean 'subscription_renewed'?"))
        // Every unknown key is reported, far from every known one or not (vendor data goes in `vendor`).
        #expect(result.stdout.contains("transactions[1].vendor_note: unknown field 'vendor_note' (an unknown field is kept but ignored)"))
        #expect(result.stdout.contains("4 problems in 1 file (1 profile checked)."))
    }

    /// Property: every key 1 or 2 edits from a known key (and not itself known) is suggested; the distance is symmetric.
    @Test func nearKeysAreSuggested() {
        var rng = SplitMix64(seed: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz_".utf8)
        for _ in 0..<500 {
            let known = TransactionTypos.knownKeys[Int(rng.next() % UInt64(TransactionTypos.knownKeys.count))]
            var bytes = Array(known.utf8)
            let position = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 3 {
            case 0: bytes[position] = letters[Int(rng.next() % UInt64(letters.count))]
            case 1: bytes.remove(at: position)
            default: bytes.insert(letters[Int(rng.next() % UInt64(letters.count))], at: position)
            }
            let word = String(decoding: bytes, as: UTF8.self)
            let distance = TransactionTypos.editDistance(bytes, Array(known.utf8), limit: 2)
            #expect(distance == TransactionTypos.editDistance(Array(known.utf8), bytes, limit: 2))
            #expect(distance <= 1)
            if !TransactionTypos.knownKeys.contains(word) { #expect(TransactionTypos.nearest(word, in: TransactionTypos.knownKeys) != nil, "\(word)") }
        }
        #expect(TransactionTypos.editDistance(Array("kitten".utf8), Array("sitting".utf8), limit: 5) == 3)
        #expect(TransactionTypos.nearest("price", in: TransactionTypos.knownKeys) == nil, "a known key is no typo")
    }
}
