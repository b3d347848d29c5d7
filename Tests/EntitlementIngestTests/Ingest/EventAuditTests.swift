import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementIngest
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// The audit of applied events: `history --explain` names the event behind each change,
/// `last_event_at` in `check --json` (fast and full path) and `status --json`, and the raw
/// record that never holds a secret.
@Suite(.tags(.cli))
struct EventAuditTests {
    typealias F = IngestFixtures

    static func ingest(_ bodies: [String], store: String, secrets: String, at now: Date = demoDate) {
        let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n"), now: now)
        #expect(result.exitCode == 0, "\(result.stderr)")
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func day(_ offset: Int64) -> String { ISODate.format(Date(timeIntervalSince1970: Double(F.base + offset * F.day) / 1000)) }

    @Test func historyExplainNamesVendorTypeIdAndReceivedTime() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let received = ISODate.parse("2026-01-07T08:00:00Z")!
        Self.ingest([F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), F.revenueCat("CANCELLATION", id: "e2", at: 5, extra: ["cancel_reason": "CUSTOMER_SUPPORT"])],
                    store: store, secrets: secrets, at: received)
        #expect(runCLI(["grant", "alice", "premium", "--duration", "1w", "--reason", "sorry", "--store", store]).exitCode == 0)
        let table = runCLI(["history", "alice", "--explain", "--store", store])
        #expect(table.exitCode == 0)
        #expect(table.stdout.contains("SOURCE EVENT"), "\(table.stdout)")
        #expect(table.stdout.contains("revenuecat CANCELLATION e2, received 2026-01-07 08:00 UTC"), "\(table.stdout)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["history", "alice", "--explain", "--json", "--store", store]).stdout.utf8)) as? [[String: Any]])
        let revocation = try #require(records.first { $0["event"] as? String == "revocation" })
        let source = try #require(revocation["source_event"] as? [String: Any])
        #expect(source["vendor"] as? String == "revenuecat" && source["type"] as? String == "CANCELLATION" && source["id"] as? String == "e2")
        #expect(source["received_at"] as? String == "2026-01-07T08:00:00Z" && source["event_time"] as? String == Self.day(5))
        #expect(source["verification"] as? String == "local input (vouched for by the operator)")
        // A person's grant has no vendor event behind it.
        let grant = try #require(records.first { $0["event"] as? String == "grant" })
        #expect(grant["source_event"] is NSNull)
        // Without --explain the records keep their old shape.
        #expect(!runCLI(["history", "alice", "--json", "--store", store]).stdout.contains("source_event"))
    }

    @Test func historyExplainNamesTheTransferEventOnBothSides() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        Self.ingest([F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0),
                     F.json(["api_version": "1.0", "event": ["type": "TRANSFER", "id": "e9", "event_timestamp_ms": F.base + F.day,
                                                             "transferred_from": ["alice"], "transferred_to": ["bob"]]])],
                    store: store, secrets: secrets)
        for (user, direction) in [("alice", "transfer to bob"), ("bob", "transfer from alice")] {
            let history = runCLI(["history", user, "--explain", "--output", "tsv", "--store", store]).stdout
            let row = try #require(history.split(separator: "\n").first { $0.contains(direction) }, "\(history)")
            #expect(row.contains("revenuecat\tTRANSFER\te9\t"), "\(row)")
        }
    }

    @Test func aMissingAuditRecordIsSaidNotHidden() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        Self.ingest([F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)], store: store, secrets: secrets)
        try FileManager.default.removeItem(atPath: store + "/" + EventLedger.relativePath(vendor: .revenuecat, id: "e1"))
        let result = runCLI(["history", "alice", "--explain", "--store", store])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("revenuecat e1 (audit record unavailable)"), "\(result.stdout)")
    }

    @Test func lastEventAtInCheckAndStatusJSON() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        // Delivered newest first: the time is the newest event's, not the last delivered.
        Self.ingest([F.revenueCat("RENEWAL", id: "e2", at: 30, transaction: "t2", purchasedAt: 30, expiresAt: 60),
                     F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)], store: store, secrets: secrets)
        let fast = try Self.json(runCLI(["check", "alice", "premium", "--json", "--store", store]).stdout)
        let full = try Self.json(runCLI(["check", "alice", "premium", "--json", "--explain", "--store", store]).stdout)
        let status = try Self.json(runCLI(["status", "alice", "--json", "--store", store]).stdout)
        for object in [fast, full, status] { #expect(object["last_event_at"] as? String == Self.day(30)) }
    }

    @Test func lastEventAtIsNullWithoutEvents() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        #expect(runCLI(["grant", "carol", "premium", "--duration", "1w", "--reason", "r", "--store", store]).exitCode == 0)
        for arguments in [["check", "carol", "premium", "--json"], ["check", "carol", "--json", "--explain"], ["status", "carol", "--json"],
                          ["check", "nobody", "--json"]] {
            let object = try Self.json(runCLI(arguments + ["--store", store]).stdout)
            #expect(object.keys.contains("last_event_at") && object["last_event_at"] is NSNull, "\(arguments)")
        }
        // Only single-user JSON gains the field: --stdin records and plain text keep theirs.
        #expect(!runCLI(["check", "--stdin", "premium", "--store", store], stdin: "carol\n").stdout.contains("last_event_at"))
    }

    /// `FastCheck.lastEventAt` reads what `Profile.lastEventAt` reads, for every shape of the field.
    @Test(arguments: [
        #""last_event": {"at": "2026-02-01T00:00:00Z", "id": "e1", "type": "RENEWAL", "vendor": "revenuecat"}"#,
        #""last_event": {"id": "e1", "vendor": "revenuecat"}"#,
        #""last_event": {"at": "not a date"}"#,
        #""last_event": "2026-02-01T00:00:00Z""#,
        #""last_event": null"#,
        #""x": 1"#,
    ])
    func fastPathReadsLastEventAsTheFullPathDoes(_ field: String) throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        writeFile(store + "/profiles/dora.json", #"{"customer_user_id": "dora", "schema_version": 1, "transactions": [], \#(field)}"#)
        let storeValue = EntitlementStore(root: store)
        let configuration = try storeValue.loadConfiguration()
        let check = try #require(FastCheck(store: storeValue, configuration: configuration, entitlement: "premium", environment: .any, date: demoDate))
        defer { check.close() }
        let scratch = check.makeScratch()
        #expect(check.answer("dora", scratch: scratch) != nil)
        let profile = try #require(try storeValue.loadProfile(userID: "dora"))
        #expect(check.lastEventAt(scratch) == profile.lastEventAt)
    }

    /// The raw records ingest keeps (the ledger's audit record, the spool) hold no credential:
    /// not the Authorization value, not a proxy's, a cookie or a push token in the URL.
    @Test func rawRecordsNeverHoldASecretOrAnAuthorizationHeader() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        let result = WebhookCGITests.post("revenuecat", body, store: store, secrets: secrets, extra: [
            "HTTP_PROXY_AUTHORIZATION": "Basic proxy-secret", "HTTP_COOKIE": "session=cookie-secret", "QUERY_STRING": "token=query-secret",
            "HTTP_USER_AGENT": "RevenueCat",
        ])
        #expect(WebhookCGITests.accepted(result), "\(result.stdout)")
        let record = try #require(readFile(store + "/" + EventLedger.relativePath(vendor: .revenuecat, id: "e1")))
        let secretValues = ["test-secret", "proxy-secret", "cookie-secret", "query-secret"]
        for secret in secretValues { #expect(!record.contains(secret)) }
        #expect(!record.lowercased().contains("authorization\""), "\(record)")
        #expect(record.contains("\"verification\": \"authorization header\""))
        // A request the spool keeps (here: one whose store is gone when it is applied) keeps no credential either.
        let request = WebhookRequest(vendor: .revenuecat, body: Array(body.utf8), headers: WebhookRequest.headers(fromCGI: [
            "HTTP_AUTHORIZATION": F.secret, "HTTP_PROXY_AUTHORIZATION": "Basic proxy-secret", "HTTP_COOKIE": "session=cookie-secret",
            "QUERY_STRING": "a=1&token=query-secret", "HTTP_STRIPE_SIGNATURE": "t=1,v1=abc",
        ]), receivedAt: demoDate, overHTTP: true)
        let spooled = String(decoding: SpoolRecord(request: request, verification: "authorization header").bytes, as: UTF8.self)
        for secret in secretValues { #expect(!spooled.contains(secret), "\(spooled)") }
        #expect(!spooled.contains("\"authorization\"") && !spooled.contains("\"cookie\"") && spooled.contains("stripe-signature"))
        // Every file ingest left in the store, ledger and spool alike.
        let enumerator = FileManager.default.enumerator(atPath: store)
        while let path = enumerator?.nextObject() as? String {
            guard let text = readFile(store + "/" + path) else { continue }
            for secret in secretValues { #expect(!text.contains(secret), "\(path)") }
        }
    }
}
