import Foundation
import Testing
@testable import EntitlementCore

/// `verify`: every problem of a store, and never a write.
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
        #expect(result.stdout.contains("staged file of an interrupted write"))
        #expect(result.stdout.contains("journal of an interrupted multi-file write"))
    }
}
