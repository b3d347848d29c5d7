import Foundation
import Testing
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `refresh USER --vendor revenuecat` and `ingest --refresh` against RevenueCat's API played back
/// by lighttpd on 127.0.0.1; curl is the client, as in production.
@Suite(.tags(.cli), .serialized, .timeLimit(.minutes(10)), .enabled(if: RecordedAPI.available, "needs lighttpd and curl (scripts/ensure-tools.sh)"))
struct RefreshTests {
    typealias F = IngestFixtures
    static let renewed = RecordedAPI.fixture("revenuecat-subscriber-renewed.json")

    /// A store, a secrets file with `api_key` (or without), and the API.
    static func setUp(_ directory: TemporaryDirectory, key: String? = RecordedAPI.key) throws -> (store: String, secrets: String, api: RecordedAPI) {
        let (store, _) = F.store(in: directory)
        let secrets = directory.path + "/refresh-secrets.json"
        var entry: [String: Any] = ["authorization": F.secret]
        if let key { entry["api_key"] = key }
        writeFile(secrets, F.json(["revenuecat": entry]))
        chmod(secrets, 0o600)
        return (store, secrets, try RecordedAPI(directory: directory.path + "/api"))
    }

    /// The back-off waits go through `pacing`, never the wall clock.
    static func refresh(_ user: String, _ store: String, _ secrets: String, base: String, extra: [String] = [],
                        pacing: RecordingPacing = RecordingPacing()) -> CLIResult {
        runCLI(["refresh", user, "--vendor", "revenuecat", "--api-base", base, "--store", store, "--secrets", secrets] + extra, pacing: pacing.pacing)
    }

    @Test func importsTheSubscriberLikeImport() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory)
        defer { api.stop() }
        api.serve("alice", body: Self.renewed)
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(45)]).exitCode != 0)
        let result = Self.refresh("alice", store, secrets, base: api.base)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "Refreshed alice from RevenueCat: new profile, 1 transaction added, 1 renewal info changed.\n")
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(45)]).exitCode == 0)
        // The same answer again changes nothing, as a second import of one document.
        let again = Self.refresh("alice", store, secrets, base: api.base, extra: ["--json"])
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("\"changed\": false"))
        // The key never reaches the store.
        #expect(try !Self.storeHolds(store, RecordedAPI.key))
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func theIdIsOnePercentEncodedPathSegment() throws {
        #expect(URLComponent.encoded("a b/../c?d#é") == "a%20b%2F..%2Fc%3Fd%23%C3%A9")
        #expect(URLComponent.encoded("alice-1_x.y~z") == "alice-1_x.y~z")
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory)
        defer { api.stop() }
        api.serve("al ice", body: Self.renewed.replacingOccurrences(of: "\"original_app_user_id\": \"alice\"", with: "\"original_app_user_id\": \"al ice\""))
        let result = Self.refresh("al ice", store, secrets, base: api.base + "/")
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    @Test func missingKeyIsExit2AndAsksNothing() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory, key: nil)
        defer { api.stop() }
        let result = Self.refresh("alice", store, secrets, base: api.base)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("has no revenuecat.api_key"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
    }

    @Test func aWrongKeyIsTheStatusNamed() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory, key: "sk_wrong")
        defer { api.stop() }
        api.serve("alice", body: Self.renewed)
        let result = Self.refresh("alice", store, secrets, base: api.base)
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("answered HTTP 401 (unauthorized), not 200"))
        #expect(!result.stderr.contains("sk_wrong"))
    }

    @Test(arguments: [(500, "HTTP 500 (internal server error)"), (404, "HTTP 404 (not found)")])
    func nonOKAnswersAreExit4(status: Int, named: String) throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory)
        defer { api.stop() }
        if status != 404 { api.serve("alice", body: "{}", status: status) }
        let pacing = RecordingPacing()
        let result = Self.refresh("alice", store, secrets, base: api.base, pacing: pacing)
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains(named), "\(result.stderr)")
        // A 5xx is asked twice more after 1 and 2 s of back-off, on the injected clock.
        #expect(pacing.slept == (status == 500 ? [1, 2] : []))
    }

    @Test func aBodyThatIsNoSubscriberIsExit4() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory)
        defer { api.stop() }
        api.serve("alice", body: "<html>maintenance</html>")
        let result = Self.refresh("alice", store, secrets, base: api.base)
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("/v1/subscribers/alice"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
    }

    @Test func unreachableAndSlowAreExit6() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory)
        defer { api.stop() }
        let nobody = "http://127.0.0.1:\(WebServer.freePort())"
        let refused = Self.refresh("alice", store, secrets, base: nobody)
        #expect(refused.exitCode == 6)
        #expect(refused.stderr.contains("cannot reach \(nobody)/v1/subscribers/alice"))
        api.serve("alice", body: Self.renewed, delay: 3)
        let slow = Self.refresh("alice", store, secrets, base: api.base, extra: ["--timeout", "1"])
        #expect(slow.exitCode == 6)
        #expect(slow.stderr.contains("did not answer within 1 s"))
    }

    @Test func ingestRefreshRereadsEveryRevenueCatCustomerTouched() throws {
        let directory = TemporaryDirectory()
        let (store, secrets, api) = try Self.setUp(directory)
        defer { api.stop() }
        api.serve("alice", body: Self.renewed)
        let events = [F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), F.revenueCat("RENEWAL", id: "e2", at: 1, user: "bob")].joined(separator: "\n")
        let result = runCLI(["ingest", "--stdin", "--refresh", "--api-base", api.base, "--store", store, "--secrets", secrets], stdin: events + "\n")
        // bob has no recorded answer (404): named, counted, and the worst code wins.
        #expect(result.exitCode == 4)
        #expect(result.stdout.contains("Refreshed 2 RevenueCat customers: 1 changed, 1 failed."))
        #expect(result.stderr.contains("refresh bob: "))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(45)]).exitCode == 0)
        #expect(runCLI(["check", "bob", "premium", "--store", store, "--at", F.at(20)]).exitCode == 0)
    }

    @Test func curlGetsTheKeyOnStandardInputOnly() {
        let config = CurlConfig.text(APIRequest(.get, "https://x/v1/subscribers/a%22b", headers: [("Authorization", "Bearer k\"\\")], credentialCheck: "k"), timeout: 5, maxBytes: 10)
        #expect(config.contains(#"header = "Authorization: Bearer k\"\\""#))
        #expect(config.contains(#"proto = "=http,https""#))
        #expect(!VendorAPIClient.isHeaderSafe("sk_a\r\nX-Evil: 1"))
        let split = CurlConfig.split(Array("{\"a\":1}\n429\t7".utf8))
        #expect(split.body == Array("{\"a\":1}".utf8) && split.code == 429 && split.retryAfter == "7")
    }

    static func storeHolds(_ store: String, _ text: String) throws -> Bool {
        let files = FileManager.default.enumerator(atPath: store)?.allObjects as? [String] ?? []
        return files.contains { (readFile(store + "/" + $0) ?? "").contains(text) }
    }
}
