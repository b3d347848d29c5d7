import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Stripe's own material (Fixtures/import/stripe/sdk and Fixtures/trust/stripe: stripe-java,
/// stripe-dotnet and stripe-python test data) through `import`, `ingest --from` and `webhook`
/// (the CGI entry point). What each shape gets is the list in docs/import.md, "Input shapes
/// per vendor"; a refused shape is asserted with its message.
@Suite(.tags(.cli))
struct StripeRealDataTests {
    static let sdk = repositoryRoot + "/Fixtures/import/stripe/sdk/"
    static let payload = repositoryRoot + "/Fixtures/trust/stripe/dummy-webhook-payload.json"
    static let shared = repositoryRoot + "/../shared/vendor-events/stripe/"
    static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["prod_123", "-JYI_nRwd_ltcGRLnVys", "FR010_00000000000000"]}}}"#

    static func setUp(_ directory: TemporaryDirectory) -> (store: String, secrets: String) {
        let store = directory.store(config: config)
        let secrets = directory.path + "/secrets.json"
        writeFile(secrets, #"{"stripe": {"signing_secrets": ["whsec_test_secret"]}}"#)
        chmod(secrets, 0o600)
        return (store, secrets)
    }

    /// The copies CI uses are the files in ../shared, byte for byte (when ../shared is there).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: shared), "../shared is not present"))
    func theCopiesAreTheSharedFiles() throws {
        #expect(FileManager.default.contents(atPath: Self.payload) == FileManager.default.contents(atPath: Self.shared + "dummy-webhook-payload.json"))
    }

    /// Subscriptions of the 2014 and 2017 API versions, imported as documents.
    @Test(arguments: [("stripe-java-subscription-2017.json", "cus_123", "2017-07-20T00:00:00Z"),
                      ("stripe-dotnet-subscription-2014.json", "cus_5GC5XeHUC4TmO9", "2014-12-10T00:00:00Z")])
    func subscriptionsImport(_ file: String, _ user: String, _ at: String) {
        let directory = TemporaryDirectory()
        let (store, _) = Self.setUp(directory)
        let result = runCLI(["import", Self.sdk + file, "--store", store, "--at", at])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(runCLI(["check", user, "premium", "--store", store, "--at", at]).exitCode == 0)
    }

    /// Stripe's MIT test payload has no `type` or `created`: refused by name on every path.
    @Test func theMITPayloadIsRefusedByNameOnEveryPath() throws {
        let body = try #require(readFile(Self.payload))
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.setUp(directory)
        let imported = runCLI(["import", Self.payload, "--store", store])
        #expect(imported.exitCode == 0 && imported.stderr.contains("event carries a terminal.reader, not a subscription; nothing imported"), "\(imported.stderr)")
        let from = directory.path + "/bodies"
        try FileManager.default.createDirectory(atPath: from, withIntermediateDirectories: true)
        writeFile(from + "/payload.json", body)
        let ingested = runCLI(["ingest", "--from", from, "--vendor", "stripe", "--store", store, "--secrets", secrets])
        #expect(ingested.exitCode == 2)
        #expect(ingested.stderr.contains("stripe: malformed: a Stripe event needs \"id\", \"type\", \"created\" and \"data.object\""), "\(ingested.stderr)")
        let header = "t=12345,v1=07b1ede164afb7b5de91267ffa656f568c65d6e0783ce0ac55ee094643578eda"
        let environment = ["REQUEST_METHOD": "POST", "CONTENT_LENGTH": String(body.utf8.count), "GATEWAY_INTERFACE": "CGI/1.1", "HTTP_STRIPE_SIGNATURE": header]
        let posted = runCLI(["webhook", "stripe", "--store", store, "--secrets", secrets], stdin: body, environment: environment,
                            now: Date(timeIntervalSince1970: 12_355))
        #expect(posted.stdout.hasPrefix("Status: 400"), "\(posted.stdout)")
        #expect((posted.stdout + posted.stderr).contains("a Stripe event needs"), "\(posted.stdout)")
    }

    /// stripe-java's 2012 events: every entry is read by `import` (exit 0) and `ingest --from` (none malformed).
    @Test func theOldEventsReadOnImportAndIngest() throws {
        let events = try JSONParser.parse(try #require(readFile(Self.sdk + "stripe-java-webhook-events-2012.json"))).arrayValue
        let directory = TemporaryDirectory()
        let (store, secrets) = Self.setUp(directory)
        let from = directory.path + "/bodies"
        try FileManager.default.createDirectory(atPath: from, withIntermediateDirectories: true)
        for (index, event) in events.enumerated() {
            let text = String(decoding: JSONWriter().bytes(event), as: UTF8.self)
            let each = TemporaryDirectory()
            let imported = runCLI(["import", "-", "--store", each.store(config: Self.config)], stdin: text)
            #expect(imported.exitCode == 0, "\(imported.stderr)")
            writeFile(from + "/\(index).json", text)
        }
        let ingested = runCLI(["ingest", "--from", from, "--store", store, "--secrets", secrets, "--json"])
        #expect(ingested.exitCode == 0, "\(ingested.stdout) \(ingested.stderr)")
        #expect((try? JSONParser.parse(ingested.stdout))?["malformed"] == .int(0))
    }
}
