import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementIngest
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Each App Store notificationType, from the signed body (verified against a minted test root)
/// to what `check` answers (vendor-events/README.md's table; docs/ingest.md, "App Store events").
@Suite(.tags(.cli))
struct AppStoreEventTests {
    typealias F = IngestFixtures
    static let d = F.day, b = F.base

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bodies: [String]
        var day: Double
        var state: String
        var testDescription: String { name }
    }

    static let initial = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0)
    static let refund = F.appStore("REFUND", uuid: "n2", signedAt: 5, transaction: ["revocationDate": b + 5 * d, "revocationReason": 0])

    static let cases: [Case] = [
        Case(name: "SUBSCRIBED/INITIAL_BUY", bodies: [initial], day: 10, state: "active"),
        Case(name: "SUBSCRIBED/RESUBSCRIBE", bodies: [F.appStore("SUBSCRIBED", subtype: "RESUBSCRIBE", uuid: "n1", signedAt: 0)], day: 10, state: "active"),
        Case(name: "DID_RENEW", bodies: [initial, F.appStore("DID_RENEW", uuid: "n2", signedAt: 30, transaction: [
            "transactionId": "1001", "purchaseDate": b + 30 * d, "expiresDate": b + 60 * d, "transactionReason": "RENEWAL"])], day: 45, state: "active"),
        Case(name: "DID_FAIL_TO_RENEW/GRACE_PERIOD keeps access", bodies: [initial, F.appStore("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", uuid: "n2", signedAt: 30,
            renewal: ["isInBillingRetryPeriod": true, "gracePeriodExpiresDate": b + 36 * d])], day: 33, state: "grace_period"),
        Case(name: "DID_FAIL_TO_RENEW without grace: billing retry", bodies: [initial, F.appStore("DID_FAIL_TO_RENEW", uuid: "n2", signedAt: 30,
            renewal: ["isInBillingRetryPeriod": true])], day: 31, state: "billing_retry"),
        Case(name: "GRACE_PERIOD_EXPIRED", bodies: [initial, F.appStore("GRACE_PERIOD_EXPIRED", uuid: "n2", signedAt: 36,
            renewal: ["isInBillingRetryPeriod": true, "gracePeriodExpiresDate": b + 36 * d])], day: 37, state: "billing_retry"),
        Case(name: "EXPIRED/BILLING_RETRY", bodies: [initial, F.appStore("EXPIRED", subtype: "BILLING_RETRY", uuid: "n2", signedAt: 90,
            renewal: ["isInBillingRetryPeriod": false, "autoRenewStatus": 0])], day: 91, state: "expired"),
        Case(name: "EXPIRED/VOLUNTARY", bodies: [initial, F.appStore("EXPIRED", subtype: "VOLUNTARY", uuid: "n2", signedAt: 30,
            renewal: ["autoRenewStatus": 0])], day: 31, state: "expired"),
        Case(name: "REFUND", bodies: [initial, refund], day: 10, state: "revoked"),
        Case(name: "REFUND then REFUND_REVERSED", bodies: [initial, refund, F.appStore("REFUND_REVERSED", uuid: "n3", signedAt: 6)], day: 10, state: "active"),
        Case(name: "REVOKE (Family Sharing)", bodies: [F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0, transaction: ["inAppOwnershipType": "FAMILY_SHARED"]),
            F.appStore("REVOKE", uuid: "n2", signedAt: 4, transaction: ["inAppOwnershipType": "FAMILY_SHARED", "revocationDate": b + 4 * d, "revocationReason": 0])],
             day: 10, state: "revoked"),
        Case(name: "DID_CHANGE_RENEWAL_PREF/UPGRADE", bodies: [initial, F.appStore("DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", uuid: "n2", signedAt: 10, transaction: [
            "transactionId": "1001", "purchaseDate": b + 10 * d, "expiresDate": b + 40 * d])], day: 35, state: "active"),
        Case(name: "RENEWAL_EXTENDED", bodies: [initial, F.appStore("RENEWAL_EXTENDED", uuid: "n2", signedAt: 29, transaction: ["expiresDate": b + 40 * d])],
             day: 35, state: "active"),
        Case(name: "OFFER_REDEEMED", bodies: [F.appStore("OFFER_REDEEMED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0, transaction: ["offerType": 3, "offerIdentifier": "code"])],
             day: 10, state: "active"),
        Case(name: "ONE_TIME_CHARGE", bodies: [F.appStore("ONE_TIME_CHARGE", uuid: "n1", signedAt: 0, transaction: ["type": "Non-Consumable", "expiresDate": NSNull()], renewal: nil)],
             day: 400, state: "active"),
    ]

    @Test(arguments: cases)
    func notificationGivesState(_ item: Case) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: item.bodies.joined(separator: "\n"))
        #expect(ingest.exitCode == 0, "\(ingest.stderr)")
        #expect(ingest.stdout.contains("\(item.bodies.count) applied"), "\(ingest.stdout)")
        let at = ISODate.format(Date(timeIntervalSince1970: Double(F.base) / 1000 + item.day * 86_400))
        let check = runCLI(["check", F.appStoreUser, "premium", "--store", store, "--at", at, "--json"])
        #expect(check.stdout.contains("\"state\": \"\(item.state)\""), "\(check.stdout)")
    }

    /// Types that change no access: after them, the state is what the purchase left.
    @Test(arguments: ["DID_CHANGE_RENEWAL_STATUS", "PRICE_INCREASE", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "EXTERNAL_PURCHASE_TOKEN", "RESCIND_CONSENT"])
    func noChangeTypes(_ type: String) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let bodies = [Self.initial, F.appStore(type, uuid: "n2", signedAt: 3)]
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n")).exitCode == 0)
        let check = runCLI(["check", F.appStoreUser, "premium", "--store", store, "--at", "2026-01-10T00:00:00Z"])
        #expect(check.exitCode == 0)
    }

    @Test(arguments: [("TEST", nil), ("RENEWAL_EXTENSION", "SUMMARY")] as [(String, String?)])
    func notificationsWithoutCustomerData(_ type: String, _ subtype: String?) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.appStore(type, subtype: subtype, uuid: "n1", signedAt: 0, transaction: nil, renewal: nil)
        let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("1 applied"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: store + "/profiles")) ?? []).isEmpty)
    }

    @Test func forgedSignatureIsUnauthenticatedAndChangesNothing() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let attacker = TestChain()
        let payload = #"{"notificationType":"SUBSCRIBED","notificationUUID":"x","signedDate":1767225600000,"data":{"bundleId":"com.example"}}"#
        let forged = F.json(["signedPayload": attacker.sign(payload)])
        let result = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: forged)
        #expect(result.exitCode == 2)
        #expect(result.stdout.contains("1 unauthenticated"))
        #expect(!FileManager.default.fileExists(atPath: store + "/ingest/events"))
        let cgi = WebhookCGITests.post("appstore", forged, store: store, secrets: secrets)
        #expect(WebhookCGITests.status(cgi) == "Status: 403 Forbidden")
    }

    @Test func auditRecordKeepsBodyVerificationAndReceivedTime() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        _ = WebhookCGITests.post("appstore", Self.initial, store: store, secrets: secrets)
        let record = try #require(try EventLedger(store: EntitlementStore(root: store)).record(vendor: .appstore, id: "n1"))
        #expect(record.verification == "jws verified")
        #expect(record.receivedAt == demoDate)
        #expect(record.body == Self.initial)
        #expect(record.type == "SUBSCRIBED/INITIAL_BUY")
    }
}
