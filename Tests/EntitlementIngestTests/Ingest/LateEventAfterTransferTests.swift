import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// An event that arrives for a customer after `transfer` moved its purchase away applies to
/// the purchase's current holder (the `transfers` records say who, along a chain), through
/// `ingest` and `webhook` alike; the ledger names the holder and the customer the vendor named.
@Suite(.tags(.cli))
struct LateEventAfterTransferTests {
    typealias F = IngestFixtures

    static let refund = F.revenueCat("CANCELLATION", id: "e2", at: 2, extra: ["cancel_reason": "CUSTOMER_SUPPORT"])

    /// alice bought t1 (RevenueCat, e1); then support moved it along `chain` (alice → chain[0] → …).
    struct Fixture {
        let directory = TemporaryDirectory()
        let store: String
        let secrets: String

        init(chain: [String] = ["bob"]) {
            (store, secrets) = F.store(in: directory)
            #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)).exitCode == 0)
            for (from, to) in zip(["alice"] + chain, chain) {
                let moved = runCLI(["transfer", from, to, "--reason", "Account merge", "--yes", "--store", store])
                #expect(moved.exitCode == 0, "\(moved.stderr)")
            }
        }

        func ingest(_ body: String) -> CLIResult {
            runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        }

        func transactionIDs(_ user: String) throws -> [String] {
            try EntitlementStore(root: store).loadProfile(userID: user)?.transactions.map(\.transactionID) ?? []
        }

        func check(_ user: String) -> Int32 { runCLI(["check", user, "premium", "--store", store, "--at", F.at(3)]).exitCode }

        func record(_ id: String) -> String { readFile(store + "/" + EventLedger.relativePath(vendor: .revenuecat, id: id)) ?? "" }

        /// The refund reached `holder` alone: revoked there, nowhere else, and `verify` is clean.
        func expectRefunded(holder: String, others: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try transactionIDs(holder) == ["t1"], sourceLocation: sourceLocation)
            let held = try #require(try EntitlementStore(root: store).loadProfile(userID: holder)?.transactions.first, sourceLocation: sourceLocation)
            #expect(held.revokedAt != nil, "the refund revokes the holder's copy", sourceLocation: sourceLocation)
            #expect(check(holder) == 1, "no access after the refund", sourceLocation: sourceLocation)
            for other in others { #expect(try transactionIDs(other).isEmpty, "\(other) holds no copy", sourceLocation: sourceLocation) }
            let verify = runCLI(["verify", "--store", store])
            #expect(verify.exitCode == 0, "\(verify.stdout)", sourceLocation: sourceLocation)
        }
    }

    @Test func aRefundForTheOldCustomerThroughIngestReachesTheNewHolder() throws {
        let f = Fixture()
        let result = f.ingest(Self.refund)
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("1 applied"), "\(result.stdout)")
        try f.expectRefunded(holder: "bob", others: ["alice"])
        let record = f.record("e2")
        #expect(record.contains("\"customer\": \"bob\"") && record.contains("\"addressed_to\": \"alice\""), "\(record)")
    }

    @Test func aRefundForTheOldCustomerThroughTheWebhookReachesTheNewHolder() throws {
        let f = Fixture()
        let result = WebhookCGITests.post("revenuecat", Self.refund, store: f.store, secrets: f.secrets)
        #expect(WebhookCGITests.status(result) == "Status: 200 OK")
        #expect(result.stdout.contains("\"status\": \"accepted\""), "\(result.stdout)")
        try f.expectRefunded(holder: "bob", others: ["alice"])
        #expect(f.record("e2").contains("\"addressed_to\": \"alice\""))
    }

    @Test func aChainOfTransfersIsFollowedToTheLastHolder() throws {
        let f = Fixture(chain: ["bob", "carol"])
        #expect(f.ingest(Self.refund).exitCode == 0)
        try f.expectRefunded(holder: "carol", others: ["alice", "bob"])
    }

    @Test func aPurchaseTransferredBackIsHeldByTheFirstCustomerAgain() throws {
        let f = Fixture(chain: ["bob", "alice"])
        #expect(f.ingest(Self.refund).exitCode == 0)
        try f.expectRefunded(holder: "alice", others: ["bob"])
        #expect(!f.record("e2").contains("addressed_to"))
    }

    @Test func aRenewalOfATransferredSubscriptionReachesTheHolder() throws {
        let f = Fixture()
        let renewal = F.revenueCat("RENEWAL", id: "e3", at: 30, transaction: "t2", original: "t1", purchasedAt: 30, expiresAt: 60)
        #expect(f.ingest(renewal).exitCode == 0)
        #expect(try f.transactionIDs("bob") == ["t1", "t2"])
        #expect(try f.transactionIDs("alice").isEmpty)
        #expect(runCLI(["check", "bob", "premium", "--store", f.store, "--at", F.at(45)]).exitCode == 0)
    }

    @Test func transferRecordsThatFormACycleFailTheEventNamingThem() throws {
        let f = Fixture(chain: ["bob", "alice"])
        // A hand edit drops t1 from alice: now alice says bob has it, and bob says alice has it.
        let path = f.store + "/profiles/alice.json"
        var profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        profile["transactions"] = []
        profile["renewal_info"] = [:] as [String: Any]
        try JSONSerialization.data(withJSONObject: profile, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        let result = f.ingest(Self.refund)
        #expect(result.exitCode == 4, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("cycle") && result.stderr.contains("'alice'") && result.stderr.contains("'bob'"), "\(result.stderr)")
        #expect(try f.transactionIDs("alice").isEmpty && f.transactionIDs("bob").isEmpty, "nothing applied")
    }

    @Test func theNewHoldersOwnEventsAreUnchanged() throws {
        let f = Fixture()
        let refund = F.revenueCat("CANCELLATION", id: "e4", at: 2, user: "bob", extra: ["cancel_reason": "CUSTOMER_SUPPORT"])
        #expect(f.ingest(refund).exitCode == 0)
        try f.expectRefunded(holder: "bob", others: ["alice"])
        #expect(!f.record("e4").contains("addressed_to"))
    }

    @Test func verifyReportsAPurchaseHeldByTwoCustomers() throws {
        let f = Fixture()
        // bob holds t1 since the transfer; an event naming alice's purchase for carol splits it.
        #expect(f.ingest(F.revenueCat("INITIAL_PURCHASE", id: "e5", at: 1, user: "carol")).exitCode == 0)
        let verify = runCLI(["verify", "--store", f.store])
        #expect(verify.exitCode == 4, "\(verify.stdout)")
        #expect(verify.stdout.contains("profiles/carol.json: transactions: transaction 't1' of store app_store is held by two customers, 'bob' and 'carol'"),
                "\(verify.stdout)")
        let json = runCLI(["verify", "--store", f.store, "--json"])
        #expect(json.exitCode == 4 && json.stdout.contains("held by two customers"), "\(json.stdout)")
    }

    @Test func anAppStoreRefundWithTheOldTokenReachesTheNewHolder() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let subscribed = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: subscribed).exitCode == 0)
        #expect(runCLI(["transfer", F.appStoreUser, "bob", "--reason", "r", "--yes", "--store", store]).exitCode == 0)
        let refund = F.appStore("REFUND", uuid: "n2", signedAt: 2, transaction: ["revocationDate": F.base + 2 * F.day, "revocationReason": 0])
        let result = WebhookCGITests.post("appstore", refund, store: store, secrets: secrets)
        #expect(result.stdout.contains("\"status\": \"accepted\""), "\(result.stdout) \(result.stderr)")
        #expect(runCLI(["check", "bob", "premium", "--store", store, "--at", F.at(3)]).exitCode == 1)
        #expect(try EntitlementStore(root: store).loadProfile(userID: F.appStoreUser)?.transactions.isEmpty == true)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func anAppStoreEventWithoutTokenFindsTheNewHolderThroughTheIndexAtTheWebhook() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let subscribed = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: subscribed).exitCode == 0)
        #expect(runCLI(["transfer", F.appStoreUser, "bob", "--reason", "r", "--yes", "--store", store]).exitCode == 0)
        #expect(readFile(store + "/" + AppStoreCustomerIndex.relativePath("1000")) == "bob", "the transfer moves the index entry with the purchase")
        let renewed = F.appStore("DID_RENEW", uuid: "n2", signedAt: 30,
                                 transaction: ["transactionId": "1001", "purchaseDate": F.base + 30 * F.day, "expiresDate": F.base + 60 * F.day,
                                               "appAccountToken": NSNull()])
        // The webhook reads the index only (no sweep): the entry must name the holder.
        let result = WebhookCGITests.post("appstore", renewed, store: store, secrets: secrets)
        #expect(result.stdout.contains("\"status\": \"accepted\""), "\(result.stdout) \(result.stderr)")
        #expect(runCLI(["check", "bob", "premium", "--store", store, "--at", F.at(45)]).exitCode == 0)
    }
}
