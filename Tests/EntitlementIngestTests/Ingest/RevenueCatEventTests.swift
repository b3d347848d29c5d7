import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementIngest
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementCLITestSupport
import EntitlementTestSupport
@testable import EntitlementTrust

/// Each RevenueCat event type, from the raw body (`ingest --stdin`) to what `check` answers.
@Suite(.tags(.cli))
struct RevenueCatEventTests {
    typealias F = IngestFixtures

    /// One case: bodies ingested in order, then `check alice premium --at day`.
    typealias Case = IngestEventCase

    static let initial = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)

    static let cases: [Case] = [
        Case(name: "INITIAL_PURCHASE gives access", bodies: [initial], day: 10, state: "active"),
        Case(name: "RENEWAL extends it", bodies: [initial, F.revenueCat("RENEWAL", id: "e2", at: 30, transaction: "t2", purchasedAt: 30, expiresAt: 60)],
             day: 45, state: "active"),
        Case(name: "CANCELLATION (unsubscribe) keeps access until expiry", bodies: [initial, F.revenueCat("CANCELLATION", id: "e2", at: 5, extra: ["cancel_reason": "UNSUBSCRIBE"])],
             day: 10, state: "active"),
        Case(name: "CANCELLATION (unsubscribe) then no renewal", bodies: [initial, F.revenueCat("CANCELLATION", id: "e2", at: 5, extra: ["cancel_reason": "UNSUBSCRIBE"])],
             day: 31, state: "expired"),
        Case(name: "CANCELLATION CUSTOMER_SUPPORT is a refund", bodies: [initial, F.revenueCat("CANCELLATION", id: "e2", at: 5, extra: ["cancel_reason": "CUSTOMER_SUPPORT", "price": -9.99])],
             day: 10, state: "revoked"),
        Case(name: "UNCANCELLATION", bodies: [initial, F.revenueCat("CANCELLATION", id: "e2", at: 5), F.revenueCat("UNCANCELLATION", id: "e3", at: 6)],
             day: 10, state: "active"),
        Case(name: "EXPIRATION", bodies: [initial, F.revenueCat("EXPIRATION", id: "e2", at: 20, expiresAt: 20, extra: ["expiration_reason": "UNSUBSCRIBE"])],
             day: 21, state: "expired"),
        Case(name: "BILLING_ISSUE inside grace_period_expiration_at_ms", bodies: [initial, F.revenueCat("BILLING_ISSUE", id: "e2", at: 30, extra: ["grace_period_expiration_at_ms": F.base + 36 * F.day])],
             day: 33, state: "grace_period"),
        Case(name: "BILLING_ISSUE after the grace period", bodies: [initial, F.revenueCat("BILLING_ISSUE", id: "e2", at: 30, extra: ["grace_period_expiration_at_ms": F.base + 36 * F.day])],
             day: 37, state: "billing_retry"),
        Case(name: "SUBSCRIPTION_PAUSED keeps access until expiration", bodies: [initial, F.revenueCat("SUBSCRIPTION_PAUSED", id: "e2", at: 3, extra: ["auto_resume_at_ms": F.base + 60 * F.day])],
             day: 29, state: "active"),
        Case(name: "PRODUCT_CHANGE", bodies: [initial, F.revenueCat("PRODUCT_CHANGE", id: "e2", at: 4, extra: ["new_product_id": "yearly"])],
             day: 10, state: "active"),
        Case(name: "SUBSCRIPTION_EXTENDED", bodies: [initial, F.revenueCat("SUBSCRIPTION_EXTENDED", id: "e2", at: 29, expiresAt: 40)],
             day: 35, state: "active"),
        Case(name: "REFUND_REVERSED after a refund", bodies: [initial, F.revenueCat("CANCELLATION", id: "e2", at: 5, extra: ["cancel_reason": "CUSTOMER_SUPPORT"]),
                                                              F.revenueCat("REFUND_REVERSED", id: "e3", at: 7)],
             day: 10, state: "active"),
        Case(name: "NON_RENEWING_PURCHASE never expires", bodies: [F.revenueCat("NON_RENEWING_PURCHASE", id: "e1", at: 0, expiresAt: nil)],
             day: 400, state: "active"),
        Case(name: "TEMPORARY_ENTITLEMENT_GRANT lasts a day", bodies: [F.revenueCat("TEMPORARY_ENTITLEMENT_GRANT", id: "e1", at: 0, expiresAt: nil)],
             day: 0.5, state: "active"),
        Case(name: "TEMPORARY_ENTITLEMENT_GRANT then ends", bodies: [F.revenueCat("TEMPORARY_ENTITLEMENT_GRANT", id: "e1", at: 0, expiresAt: nil)],
             day: 1.5, state: "expired"),
        Case(name: "TRANSFER moves the purchase to the new id", bodies: [initial, F.json(["api_version": "1.0", "event": [
                "type": "TRANSFER", "id": "e2", "event_timestamp_ms": F.base + F.day, "transferred_from": ["alice"], "transferred_to": ["bob"]]])],
             day: 10, state: "active", user: "bob"),
        Case(name: "TRANSFER leaves the old id without it", bodies: [initial, F.json(["api_version": "1.0", "event": [
                "type": "TRANSFER", "id": "e2", "event_timestamp_ms": F.base + F.day, "transferred_from": ["alice"], "transferred_to": ["bob"]]])],
             day: 10, state: "never"),
    ]

    @Test(arguments: cases)
    func eventGivesState(_ item: Case) {
        F.expectState(item)
    }

    @Test(arguments: ["TEST", "INVOICE_ISSUANCE", "EXPERIMENT_ENROLLMENT", "VIRTUAL_CURRENCY_TRANSACTION"])
    func typesThatChangeNothing(_ type: String) {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let ingest = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: F.revenueCat(type, id: "e1", at: 0))
        #expect(ingest.exitCode == 0)
        #expect(ingest.stdout.contains("1 applied"))
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/alice.json"))
        let check = runCLI(["check", "alice", "premium", "--store", store, "--at", "2026-01-10T00:00:00Z"])
        #expect(check.exitCode == 1)
    }

    @Test func aliasesAreRecorded() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0, extra: ["aliases": ["$RCAnonymousID:1", "alice"], "original_app_user_id": "old-alice"])
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body).exitCode == 0)
        let profile = try #require(readFile(store + "/profiles/alice.json"))
        #expect(profile.contains("\"$RCAnonymousID:1\""))
        #expect(profile.contains("\"old-alice\""))
    }
}
