import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementModel
@testable import EntitlementStore
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `webhook` answers once the request is spooled and applies it after the answer has gone out
/// (docs/ingest.md, "Answers"). A request acknowledged and never applied (its webhook killed,
/// or the store busy) is applied exactly once by the next request or by `ingest`.
@Suite(.tags(.cli))
struct WebhookAfterAnswerTests {
    typealias F = IngestFixtures

    static func post(_ id: String, user: String, store: String, secrets: String) -> CLIResult {
        WebhookCGITests.post("revenuecat", F.revenueCat("INITIAL_PURCHASE", id: id, at: 0, user: user, transaction: "t-\(id)", original: "t-\(id)"),
                             store: store, secrets: secrets)
    }

    static func ledgerHas(_ id: String, _ store: String) -> Bool {
        FileManager.default.fileExists(atPath: store + "/" + EventLedger.relativePath(vendor: .revenuecat, id: id))
    }

    @Test func aRequestLeftWaitingIsAppliedOnceByTheNextRequest() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        // The store's lock is held while the first request is answered: its apply gives up.
        let lock = open(store + "/.lock", O_RDWR | O_CREAT, 0o600)
        #expect(flock(lock, LOCK_EX) == 0)
        let first = Self.post("w1", user: "alice", store: store, secrets: secrets)
        close(lock)
        #expect(WebhookCGITests.accepted(first), "\(first.stdout)")
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 1)
        #expect(!Self.ledgerHas("w1", store))

        let second = Self.post("w2", user: "bob", store: store, secrets: secrets)
        #expect(WebhookCGITests.accepted(second))
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        #expect(Spool(store: EntitlementStore(root: store)).waitingCount == 0)
        #expect(Self.ledgerHas("w1", store) && Self.ledgerHas("w2", store))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        #expect(WebhookCGITests.transactions(of: "bob", in: store) == 1)

        // Nothing is left for ingest; the vendor's retry of the first is a duplicate.
        let ingest = runCLI(["ingest", "--store", store, "--secrets", secrets, "--json"])
        #expect(ingest.exitCode == 0)
        #expect(ingest.stdout.contains("\"applied\": 0"), "\(ingest.stdout)")
        #expect(WebhookCGITests.accepted(Self.post("w1", user: "alice", store: store, secrets: secrets)))
        #expect(WebhookCGITests.transactions(of: "alice", in: store) == 1)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func theAnswerCarriesItsLengthAndNoOutcome() {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let result = Self.post("w1", user: "alice", store: store, secrets: secrets)
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        #expect(parts[0].contains("Content-Length: \(parts.last?.utf8.count ?? -1)\r\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("applied"))
        #expect(Self.ledgerHas("w1", store))
    }
}
