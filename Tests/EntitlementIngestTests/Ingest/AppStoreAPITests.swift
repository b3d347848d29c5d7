import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementIngest
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `refresh --vendor appstore`, `lookup` and `ingest --recover appstore|stripe` against the App
/// Store Server API and Stripe's event list played by `FakeAppStoreAPI` on 127.0.0.1, which
/// checks every JWT as Apple does; curl is the client, as in production. The clock and the
/// waits are injected (`AppStoreAPIFixtures.now`, `RecordedPacing`).
@Suite(.tags(.cli), .serialized, .timeLimit(.minutes(10)), .enabled(if: WebServer.curlPath != nil, "needs curl (scripts/ensure-tools.sh)"))
struct AppStoreAPITests {
    typealias F = IngestFixtures
    typealias A = AppStoreAPIFixtures

    struct Setup {
        let directory: TemporaryDirectory
        let store: String
        let secrets: String
        let api: FakeAppStoreAPI
        let pacing = A.RecordedPacing()

        init(issuedAt: Int64? = A.nowSeconds, extra: [String: Any] = [:]) throws {
            directory = TemporaryDirectory()
            store = F.store(in: directory).store
            api = try FakeAppStoreAPI(issuedAt: issuedAt)
            secrets = api.secrets(in: directory.path, root: directory.path + "/test-root.der", extra: extra)
        }

        func run(_ arguments: [String], stdin: String = "") -> CLIResult {
            runCLI(arguments + ["--store", store, "--secrets", secrets], stdin: stdin, now: A.now, pacing: pacing.pacing)
        }

        func refresh(_ user: String, _ extra: [String] = []) -> CLIResult {
            run(["refresh", user, "--vendor", "appstore", "--api-base", api.base] + extra)
        }

        func check(_ user: String, day: Double) -> Int32 {
            runCLI(["check", user, "premium", "--store", store, "--at", F.at(day)]).exitCode
        }

        func events() -> [String] {
            let root = URL(fileURLWithPath: store + "/" + EventLedger.directory)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { ($0 as? URL)?.path } ?? []
            return files.filter { $0.hasSuffix(".json") }.sorted()
        }
    }

    /// Statuses, then two pages of history (revision followed), applied once: the same answers
    /// again are duplicates in the ledger and change no byte of the store.
    @Test func refreshAsksStatusesAndEveryHistoryPageThenAppliesOnce() throws {
        let s = try Setup()
        defer { s.api.stop() }
        s.api.route("GET", "/inApps/v1/subscriptions/1000", json: A.statuses(transaction: A.transaction("1001", purchased: 0, expires: 30), renewal: A.renewal()))
        s.api.route("GET", "/inApps/v2/history/1000", json: A.history([A.transaction("1000", purchased: -30, expires: 0)], revision: "rev-1", hasMore: true))
        s.api.route("GET", "/inApps/v2/history/1000?revision=rev-1", json: A.history([A.transaction("1001", purchased: 0, expires: 30)], revision: "rev-2", hasMore: false))
        #expect(s.check("alice", day: 10) != 0)
        let first = s.refresh("alice", ["--transaction", "1000"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout == "Refreshed alice from the App Store (1 original transaction, 3 requests): 3 answers applied.\n")
        #expect(s.api.refusals.isEmpty, "\(s.api.refusals)")
        #expect(s.api.requests.map(\.target) == ["/inApps/v1/subscriptions/1000", "/inApps/v2/history/1000", "/inApps/v2/history/1000?revision=rev-1"])
        #expect(s.check("alice", day: 10) == 0)
        let profile = readFile(s.store + "/profiles/alice.json") ?? ""
        #expect(profile.contains("\"1000\"") && profile.contains("\"1001\""))
        // Asked again (the profile now names 1000 itself), Apple signs the same state anew: nothing changes.
        let before = try IngestFixtures.snapshot(s.store)
        let again = s.refresh("alice", ["--json"])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout.contains("\"changed\": false"))
        #expect(again.stdout.contains("\"answers_already_applied\": 3"))
        #expect(try IngestFixtures.snapshot(s.store) == before)
        #expect(runCLI(["verify", "--store", s.store]).exitCode == 0)
    }

    @Test func aCustomerWithNoAppStoreTransactionNeedsOneNamed() throws {
        let s = try Setup()
        defer { s.api.stop() }
        let result = s.refresh("bob")
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("bob has no App Store transaction"))
        #expect(result.stderr.contains("--transaction ID"))
        #expect(s.api.requests.isEmpty)
    }

    /// Apple refuses a token whose iat is not the run's (here: the fake expects another clock): exit 4, nothing written.
    @Test func aRefusedTokenIsExit4NamingWhatToCheck() throws {
        let s = try Setup(issuedAt: A.nowSeconds + 7200)
        defer { s.api.stop() }
        s.api.route("GET", "/inApps/v1/subscriptions/1000", json: A.statuses(transaction: A.transaction("1001"), renewal: A.renewal()))
        let result = s.refresh("alice", ["--transaction", "1000"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("answered HTTP 401"))
        #expect(result.stderr.contains("appstore.key_id"))
        #expect(!FileManager.default.fileExists(atPath: s.store + "/profiles/alice.json"))
    }

    @Test func tooManyRequestsWaitsAsRetryAfterSaysAndAServerErrorIsRetried() throws {
        let s = try Setup()
        defer { s.api.stop() }
        s.api.route("GET", "/inApps/v1/subscriptions/1000", [
            .init(status: 429, headers: [("Retry-After", "7")], body: #"{"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}"#),
            .init(status: 200, body: A.statuses(transaction: A.transaction("1001"), renewal: A.renewal())),
        ])
        s.api.route("GET", "/inApps/v2/history/1000", [
            .init(status: 500, body: #"{"errorCode": 5000000, "errorMessage": "An unknown error occurred."}"#),
            .init(status: 200, body: A.history([A.transaction("1001")], revision: "r", hasMore: false)),
        ])
        let result = s.refresh("alice", ["--transaction", "1000"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(s.pacing.recorded == [7, 1])
        #expect(s.api.requests.count == 4)
        #expect(s.check("alice", day: 10) == 0)
    }

    /// A signed transaction of another chain (not the store's roots): exit 4, nothing from the run written.
    @Test func anAnswerThatFailsVerificationWritesNothing() throws {
        let s = try Setup()
        defer { s.api.stop() }
        let forged = TestChain().sign(F.json(["transactionId": "1001", "originalTransactionId": "1000", "productId": "monthly",
                                               "purchaseDate": F.base, "expiresDate": F.base + 30 * F.day, "signedDate": F.base + 20 * F.day,
                                               "type": "Auto-Renewable Subscription", "bundleId": "com.example", "environment": "Production"]))
        s.api.route("GET", "/inApps/v1/subscriptions/1000", json: A.statuses(transaction: A.transaction("1001"), renewal: A.renewal()))
        s.api.route("GET", "/inApps/v2/history/1000", json: A.history([forged], revision: "r", hasMore: false))
        let result = s.refresh("alice", ["--transaction", "1000"])
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("/inApps/v2/history/1000"))
        #expect(!FileManager.default.fileExists(atPath: s.store + "/profiles/alice.json"))
        #expect(s.events().isEmpty)
    }

    @Test func aKeyFileOthersMayReadIsExit2AndAsksNothing() throws {
        let s = try Setup()
        defer { s.api.stop() }
        chmod(s.directory.path + "/AuthKey_\(FakeAppStoreAPI.keyID).p8", 0o640)
        let result = s.refresh("alice", ["--transaction", "1000"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("appstore.private_key_file"))
        #expect(s.api.requests.isEmpty)
    }

    /// The order's transaction is held by nobody yet: printed, then imported into --user;
    /// asked again, the holder is found by the original transaction.
    @Test func lookupPrintsTheOrderAndImportsIntoTheCustomer() throws {
        let s = try Setup()
        defer { s.api.stop() }
        s.api.route("GET", "/inApps/v1/lookup/MK5TTTVWJH", json: A.lookup([A.transaction("1001")]))
        let shown = s.run(["lookup", "MK5TTTVWJH", "--api-base", s.api.base])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Order MK5TTTVWJH: 1 transaction"))
        #expect(shown.stdout.contains("1001  monthly  purchased 2026-01-01T00:00:00Z  expires 2026-01-31T00:00:00Z  original 1000"))
        #expect(shown.stdout.contains("held by no customer here"))
        let imported = s.run(["lookup", "MK5TTTVWJH", "--import", "--user", "carol", "--api-base", s.api.base])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported into carol: applied."))
        #expect(s.check("carol", day: 10) == 0)
        let json = s.run(["lookup", "MK5TTTVWJH", "--json", "--api-base", s.api.base])
        guard case .object(let root)? = try? JSONParser.parse(Array(json.stdout.utf8)) else { Issue.record("not JSON: \(json.stdout)"); return }
        #expect(root["customer"] == .string("carol"))
        #expect(root["transactions"]?.arrayValue.first?.objectValue?["customer_found_by"] == .string("original transaction"))
        #expect(s.api.refusals.isEmpty)
    }

    @Test func lookupOfAnOrderAppleDoesNotKnowIsExit3() throws {
        let s = try Setup()
        defer { s.api.stop() }
        s.api.route("GET", "/inApps/v1/lookup/NOTANORDER", json: #"{"status": 1}"#)
        let result = s.run(["lookup", "NOTANORDER", "--api-base", s.api.base])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("Apple has no order NOTANORDER for this app"))
    }

    /// Get Notification History over two pages: a notification the webhook already applied is
    /// counted as such, the others applied; a second run over the same window applies nothing.
    @Test func recoverAppliesTheNotificationHistoryOnce() throws {
        let s = try Setup()
        defer { s.api.stop() }
        let bodies = (0..<3).map { index in
            F.appStore("DID_RENEW", uuid: "uuid-\(index)", signedAt: Int64(index), transaction: ["transactionId": "10\(index)0", "purchaseDate": F.base + Int64(index) * F.day])
        }
        let delivered = s.run(["ingest", "--stdin"], stdin: bodies[1])
        #expect(delivered.exitCode == 0, "\(delivered.stderr)")
        let since = Date(timeIntervalSince1970: Double(F.base) / 1000)
        let request = "{\"startDate\":\(F.base),\"endDate\":\(Int64(A.now.timeIntervalSince1970 * 1000))}"
        s.api.route("POST", "/inApps/v1/notifications/history", json: A.notificationHistory(Array(bodies[0...1]), token: "page-2"))
        s.api.route("POST", "/inApps/v1/notifications/history?paginationToken=page-2", json: A.notificationHistory([bodies[2]], token: nil))
        let arguments = ["ingest", "--recover", "appstore", "--since", ISODate.format(since), "--api-base", s.api.base]
        let first = s.run(arguments)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout == "Recovered 3 App Store notifications from 2026-01-01T00:00:00Z to 2026-01-21T00:00:00Z (2 requests): 2 new, 1 already applied, 0 failed.\n")
        #expect(s.api.requests.allSatisfy { String(decoding: $0.body, as: UTF8.self) == request })
        let before = try IngestFixtures.snapshot(s.store)
        let second = s.run(arguments + ["--json"])
        #expect(second.exitCode == 0)
        #expect(second.stdout.contains("\"new\": 0"))
        #expect(second.stdout.contains("\"already_applied\": 3"))
        #expect(try IngestFixtures.snapshot(s.store) == before)
        #expect(s.events().count == 3)
        #expect(s.api.refusals.isEmpty)
    }

    /// Stripe's event list, newest first over two pages (starting_after), applied oldest first;
    /// the second run applies nothing.
    @Test func recoverStripeFollowsStartingAfterAndAppliesInCreatedOrder() throws {
        let s = try Setup()
        defer { s.api.stop() }
        func event(_ id: String, created: Int64, status: String) -> [String: Any] {
            ["id": id, "object": "event", "type": "customer.subscription.updated", "created": created, "livemode": false,
             "data": ["object": ["id": "sub_1", "object": "subscription", "customer": "cus_1", "status": status,
                                 "metadata": ["user_id": "dave"], "livemode": false,
                                 "current_period_start": F.base / 1000, "current_period_end": F.base / 1000 + 30 * 86_400, "start_date": F.base / 1000, "created": F.base / 1000,
                                 "items": ["object": "list", "data": [["id": "si_1", "current_period_start": F.base / 1000, "current_period_end": F.base / 1000 + 30 * 86_400,
                                                                        "price": ["id": "monthly", "product": "monthly"]]]]]]]
        }
        let start = F.base / 1000, end = Int64(A.now.timeIntervalSince1970)
        var query = "created%5Bgte%5D=\(start)&created%5Blt%5D=\(end)&limit=100"
        for type in StripeEventHistory.types { query += "&types%5B%5D=\(type)" }
        s.api.route("GET", "/v1/events?\(query)", json: F.json(["object": "list", "has_more": true, "data": [event("evt_3", created: start + 300, status: "canceled")]]))
        s.api.route("GET", "/v1/events?\(query)&starting_after=evt_3", json: F.json(["object": "list", "has_more": false, "data": [event("evt_1", created: start + 100, status: "active")]]))
        let arguments = ["ingest", "--recover", "stripe", "--since", F.at(0), "--api-base", s.api.base]
        let first = s.run(arguments)
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("Recovered 2 Stripe events") && first.stdout.contains("2 new, 0 already applied, 0 failed"))
        let second = s.run(arguments)
        #expect(second.stdout.contains("0 new, 2 already applied"))
        #expect(s.api.refusals.isEmpty, "\(s.api.refusals)")
    }
}
