import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `ingest --recover googleplay` against Google's Voided Purchases API played by
/// `FakeVendorAPI`, which checks the service account's RS256 assertion at the key file's
/// `token_uri` and then the bearer of every request: each voided purchase revokes the Play
/// purchase of the customer holding its token, once, whether it came by RTDN
/// (`voidedPurchaseNotification`) or by recovery; a token no customer holds is counted, not failed.
@Suite(.tags(.cli), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.curlPath != nil, "needs curl (scripts/ensure-tools.sh)"))
struct GooglePlayRecoverTests {
    typealias Setup = VendorRefreshTests.Setup
    static let path = "/androidpublisher/v3/applications/\(VendorRefreshTests.packageName)/purchases/voidedpurchases"
    static let since = "2026-03-01T00:00:00Z", until = "2026-03-20T00:00:00Z"
    static let voidedAt = "2026-03-10T00:00:00Z"
    static var voidedMillis: String { String(Int64(ISODate.parse(voidedAt)!.timeIntervalSince1970 * 1000)) }

    /// A store whose config maps the Play product, bob holding `gp-token-active` and carol `gp-token-carol`.
    static func setUp() throws -> Setup {
        let setup = try Setup()
        writeFile(setup.store + "/config.json", readFile(repositoryRoot + "/Fixtures/import/config.json")!)
        VendorRefreshTests.importPlayPurchase(setup, user: "bob")
        let carol = setup.directory.path + "/carol-purchase.json"
        writeFile(carol, VendorRefreshTests.fixture("import/googleplay/purchase-active.json").replacingOccurrences(of: "gp-token-active", with: "gp-token-carol"))
        #expect(runCLI(["import", carol, "--format", "googleplay", "--user", "carol", "--store", setup.store]).exitCode == 0)
        return setup
    }

    static func voided(_ token: String, order: String) -> String {
        #"{"kind": "androidpublisher#voidedPurchase", "purchaseToken": "\#(token)", "purchaseTimeMillis": "1771578000000", "voidedTimeMillis": "\#(voidedMillis)", "orderId": "\#(order)", "voidedSource": 0, "voidedReason": 1}"#
    }

    /// Two pages: bob's purchase and a token nobody here holds, then carol's.
    static func serveTwoPages(_ setup: Setup) {
        setup.api.on("GET", path, handler: { request in
            let window = request.query["startTime"] == "1772323200000" && request.query["endTime"] == "1773964800000" && request.query["type"] == "1"
            guard window else { return .status(400, #"{"error": {"code": 400, "message": "bad window"}}"#) }
            if request.query["token"] == "page-2" {
                return .json(#"{"pageInfo": {"totalResults": 1}, "voidedPurchases": [\#(Self.voided("gp-token-carol", order: "GPA.2"))]}"#)
            }
            return .json(#"{"tokenPagination": {"nextPageToken": "page-2"}, "voidedPurchases": [\#(Self.voided("gp-token-active", order: "GPA.1")), \#(Self.voided("gp-token-unknown", order: "GPA.9"))]}"#)
        })
    }

    func recover(_ setup: Setup, _ extra: [String] = []) -> CLIResult {
        runCLI(["ingest", "--recover", "googleplay", "--since", Self.since, "--until", Self.until, "--api-base", setup.api.base,
                "--store", setup.store, "--secrets", setup.secrets] + extra, pacing: setup.pacing.pacing)
    }

    func entitled(_ setup: Setup, _ user: String) -> Bool {
        runCLI(["check", user, "premium", "--store", setup.store, "--at", "2026-03-15T12:00:00Z"]).exitCode == 0
    }

    @Test func voidedPurchasesRevokeTheirHoldersOnceOverEveryPage() throws {
        let setup = try Self.setUp()
        Self.serveTwoPages(setup)
        #expect(entitled(setup, "bob") && entitled(setup, "carol"))
        let first = recover(setup)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout == "Recovered 3 Google Play voided purchases from \(Self.since) to \(Self.until) (3 requests): 2 new, 0 already applied, 1 not held here, 0 failed.\n")
        #expect(setup.api.requests(to: Self.path).map { $0.query["token"] } == [nil, "page-2"])
        #expect(setup.api.requests(to: Self.path).allSatisfy { $0.headers["authorization"] == "Bearer ya29.fake-1" })
        #expect(setup.tokens.requests(to: "/token").count == 1)
        #expect(!entitled(setup, "bob") && !entitled(setup, "carol"))
        #expect(setup.profile("bob").contains("\"revoked_at\": \"\(Self.voidedAt)\"") && setup.profile("bob").contains("\"refunded\""))
        // The same window again applies nothing and changes no byte.
        let before = try IngestFixtures.snapshot(setup.store)
        let second = recover(setup, ["--json"])
        #expect(second.exitCode == 0)
        let json = try JSONParser.parse(second.stdout)
        #expect(json["new"] == .int(0) && json["already_applied"] == .int(3) && json["not_held"] == .int(0) && json["failed"] == .int(0), "\(second.stdout)")
        #expect(try IngestFixtures.snapshot(setup.store) == before)
        #expect(runCLI(["verify", "--store", setup.store]).exitCode == 0)
    }

    /// One voided purchase pushed by RTDN and listed by recovery is applied once, either way round.
    @Test func aVoidedPurchaseByRTDNAndByRecoveryIsAppliedOnce() throws {
        let notification = GooglePlayNotificationTests.push(["voidedPurchaseNotification": [
            "purchaseToken": "gp-token-active", "orderId": "GPA.1", "productType": 1, "refundType": 1]], eventTime: Self.voidedMillis)
        for rtdnFirst in [true, false] {
            let setup = try Self.setUp()
            Self.serveTwoPages(setup)
            func push() -> CLIResult { runCLI(["ingest", "--stdin", "--json", "--store", setup.store, "--secrets", setup.secrets], stdin: notification) }
            if rtdnFirst {
                let pushed = push()
                #expect(pushed.exitCode == 0 && pushed.stdout.contains("\"applied\": 1"), "\(pushed.stdout)\(pushed.stderr)")
                #expect(!entitled(setup, "bob"))
            }
            let recovered = recover(setup)
            #expect(recovered.exitCode == 0, "\(recovered.stderr)")
            #expect(recovered.stdout.contains(rtdnFirst ? "1 new, 1 already applied, 1 not held here" : "2 new, 0 already applied, 1 not held here"), "\(recovered.stdout)")
            if !rtdnFirst {
                let pushed = push()
                #expect(pushed.stdout.contains("\"duplicate\": 1"), "\(pushed.stdout)")
            }
            let ledger = setup.store + "/" + EventLedger.relativePath(vendor: .googleplay, id: "voided:GPA.1")
            #expect(FileManager.default.fileExists(atPath: ledger))
            #expect(!entitled(setup, "bob"))
        }
    }

    /// `webhook googleplay` leaves the sweep for the customer to `ingest` (its deadline): the
    /// voided notification is acknowledged, kept, and revokes on the next `ingest`.
    @Test func aVoidedNotificationByWebhookRevokesOnTheNextIngest() throws {
        let setup = try Self.setUp()
        let body = GooglePlayNotificationTests.push(["voidedPurchaseNotification": [
            "purchaseToken": "gp-token-active", "orderId": "GPA.1", "productType": 1, "refundType": 1]], eventTime: Self.voidedMillis)
        let environment = ["REQUEST_METHOD": "POST", "CONTENT_LENGTH": String(body.utf8.count), "GATEWAY_INTERFACE": "CGI/1.1", "QUERY_STRING": "token=p"]
        let posted = runCLI(["webhook", "googleplay", "--store", setup.store, "--secrets", setup.secrets], stdin: body, environment: environment)
        #expect(posted.stdout.hasPrefix("Status: 200"), "\(posted.stdout)")
        #expect(entitled(setup, "bob"))
        let ingested = runCLI(["ingest", "--json", "--store", setup.store, "--secrets", setup.secrets])
        #expect(ingested.exitCode == 0, "\(ingested.stdout)\(ingested.stderr)")
        #expect(!entitled(setup, "bob"))
        #expect(FileManager.default.fileExists(atPath: setup.store + "/" + EventLedger.relativePath(vendor: .googleplay, id: "voided:GPA.1")))
    }

    @Test func aRefusedBearerOrAnAnswerOfAnotherShapeWritesNothing() throws {
        let setup = try Self.setUp()
        setup.api.on("GET", Self.path, .json(#"{"voidedPurchases": [{"orderId": "GPA.1"}]}"#))
        let before = try IngestFixtures.snapshot(setup.store)
        let shape = recover(setup)
        #expect(shape.exitCode == 4)
        #expect(shape.stderr.contains("voidedPurchases[0]"), "\(shape.stderr)")
        writeFile(setup.accountFile, setup.google.serviceAccountJSON(tokenURI: setup.tokens.base + "/token", privatePEM: TestRSAKey.other.privatePEM))
        let refused = recover(setup)
        #expect(refused.exitCode == 4)
        #expect(refused.stderr.contains("googleplay.service_account_file"), "\(refused.stderr)")
        #expect(try IngestFixtures.snapshot(setup.store) == before)
    }
}
