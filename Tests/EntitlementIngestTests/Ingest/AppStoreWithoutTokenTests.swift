@testable import EntitlementStore
import Foundation
import Testing
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// App Store notifications without `appAccountToken`: the customer is the one whose profile
/// holds the original transaction (AppStoreCustomerIndex); when none does, the event is kept
/// with its reason and applied by a later `ingest` (docs/ingest.md, "App Store events").
@Suite(.tags(.cli))
struct AppStoreWithoutTokenTests {
    typealias F = IngestFixtures

    static let subscribed = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedAt: 0)
    /// A renewal of original transaction 1000 whose transaction carries no token.
    static let renewed = F.appStore("DID_RENEW", uuid: "n2", signedAt: 30,
                                    transaction: ["transactionId": "1001", "purchaseDate": F.base + 30 * F.day, "expiresDate": F.base + 60 * F.day,
                                                  "appAccountToken": NSNull()])
    static let index = "/index/app-store-original-transaction"

    static func ingest(_ bodies: [String], store: String, secrets: String) -> CLIResult {
        runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: bodies.joined(separator: "\n"))
    }

    static func check(_ store: String, day: Double) -> CLIResult {
        runCLI(["check", F.appStoreUser, "premium", "--store", store, "--at", IngestFixtures.at(day)])
    }

    @Test func theHolderOfTheOriginalTransactionIsTheCustomer() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(Self.ingest([Self.subscribed], store: store, secrets: secrets).exitCode == 0)
        #expect(readFile(store + "/" + AppStoreCustomerIndex.relativePath("1000")) == F.appStoreUser)
        #expect(Self.check(store, day: 45).exitCode == 1)
        let renewal = Self.ingest([Self.renewed], store: store, secrets: secrets)
        #expect(renewal.exitCode == 0, "\(renewal.stderr)")
        #expect(renewal.stdout.contains("1 applied"))
        #expect(Self.check(store, day: 45).exitCode == 0)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func withoutAnIndexEntryTheProfilesAreSweptAndTheEntryWritten() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(Self.ingest([Self.subscribed], store: store, secrets: secrets).exitCode == 0)
        try FileManager.default.removeItem(atPath: store + Self.index)
        #expect(Self.ingest([Self.renewed], store: store, secrets: secrets).exitCode == 0)
        #expect(Self.check(store, day: 45).exitCode == 0)
        #expect(readFile(store + "/" + AppStoreCustomerIndex.relativePath("1000")) == F.appStoreUser)
    }

    @Test func anEntryNamingAnotherCustomerIsIgnored() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(Self.ingest([Self.subscribed], store: store, secrets: secrets).exitCode == 0)
        writeFile(store + "/" + AppStoreCustomerIndex.relativePath("1000"), "mallory")
        #expect(Self.ingest([Self.renewed], store: store, secrets: secrets).exitCode == 0)
        #expect(Self.check(store, day: 45).exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: store + "/profiles/mallory.json"))
        #expect(readFile(store + "/" + AppStoreCustomerIndex.relativePath("1000")) == F.appStoreUser)
    }

    @Test func unmatchedIsKeptWithItsReasonThenAppliedOnceTheCustomerHoldsIt() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let early = WebhookCGITests.post("appstore", Self.renewed, store: store, secrets: secrets, authorization: nil)
        #expect(WebhookCGITests.status(early) == "Status: 200 OK")
        let status = runCLI(["ingest", "--status", "--store", store])
        #expect(status.stdout.contains("Failed: 1:"), "\(status.stdout)")
        #expect(status.stdout.contains("unmatched"))
        #expect(status.stdout.contains("'1000'"))
        #expect(Self.check(store, day: 45).exitCode == 1)
        // The purchase with its token arrives; the next ingest applies the kept renewal.
        #expect(Self.ingest([Self.subscribed], store: store, secrets: secrets).exitCode == 0)
        let retry = runCLI(["ingest", "--store", store, "--secrets", secrets])
        #expect(retry.exitCode == 0, "\(retry.stdout)\(retry.stderr)")
        #expect(retry.stdout.contains("1 applied"))
        #expect(Self.check(store, day: 45).exitCode == 0)
        #expect(!runCLI(["ingest", "--status", "--store", store]).stdout.contains("unmatched"))
    }

    /// A sweep of a big store takes seconds, past Apple's deadline: the webhook asks the index
    /// only, and a miss is spooled for `ingest`, which sweeps.
    @Test func theWebhookAsksTheIndexOnlyAndIngestSweeps() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        #expect(Self.ingest([Self.subscribed], store: store, secrets: secrets).exitCode == 0)
        let post = { (body: String) in WebhookCGITests.post("appstore", body, store: store, secrets: secrets, authorization: nil) }
        let indexed = post(Self.renewed)
        #expect(WebhookCGITests.accepted(indexed))
        #expect(indexed.stderr.isEmpty, "\(indexed.stderr)")
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 0)
        try FileManager.default.removeItem(atPath: store + Self.index)
        let third = F.appStore("DID_RENEW", uuid: "n3", signedAt: 60,
                               transaction: ["transactionId": "1002", "purchaseDate": F.base + 60 * F.day, "expiresDate": F.base + 90 * F.day,
                                             "appAccountToken": NSNull()])
        let missed = post(third)
        #expect(WebhookCGITests.status(missed) == "Status: 200 OK")
        #expect(missed.stderr.contains("index names no customer"), "\(missed.stderr)")
        #expect(Self.check(store, day: 75).exitCode == 1)
        let ingest = runCLI(["ingest", "--store", store, "--secrets", secrets])
        #expect(ingest.exitCode == 0, "\(ingest.stdout)\(ingest.stderr)")
        #expect(Self.check(store, day: 75).exitCode == 0)
    }

    @Test func twoCustomersHoldingItIsUnmatched() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let other = "0b7a5c55-1f0e-4c36-9d0b-8b1a6f1c2d3e"
        let second = F.appStore("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n0", signedAt: 0, transaction: ["appAccountToken": other])
        #expect(Self.ingest([Self.subscribed, second], store: store, secrets: secrets).exitCode == 0)
        try? FileManager.default.removeItem(atPath: store + Self.index)
        let result = Self.ingest([Self.renewed], store: store, secrets: secrets)
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("unmatched"), "\(result.stderr)")
    }
}
