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

/// An unreadable ledger record never makes its event a duplicate: `ingest` fails the event
/// (with the file named, exit 4, so the sender keeps it) and applies it once the file is fixed; `verify` reports the
/// record, a garbage App Store original-transaction entry and a garbage Google Play record.
@Suite(.tags(.cli))
struct UnreadableRecordTests {
    typealias F = IngestFixtures

    static func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        writeFile(path, text)
    }

    @Test func anUnreadableLedgerRecordFailsItsEventInsteadOfDroppingIt() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let record = EventLedger.relativePath(vendor: .revenuecat, id: "e1")
        try Self.write(store + "/" + record, "garbage{")
        let body = F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0)
        let first = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        #expect(first.exitCode == 4, "\(first.stdout) \(first.stderr)")
        #expect((first.stdout + first.stderr).contains("ledger record cannot be read"), "\(first.stdout) \(first.stderr)")
        #expect(!first.stdout.contains("1 duplicate"))
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(1)]).exitCode == 1, "not applied over the file")
        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode != 0)
        #expect(verify.stdout.contains(record) && verify.stdout.contains("unreadable event record"), "\(verify.stdout)")
        // Fixed (removed): the event, sent again, applies once.
        try FileManager.default.removeItem(atPath: store + "/" + record)
        let again = runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: body)
        #expect(again.exitCode == 0, "\(again.stdout) \(again.stderr)")
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(1)]).exitCode == 0)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    /// The same through `webhook` as a web server runs it (CGI variables, the body on standard
    /// input): the event is spooled and failed with the file named, never counted a duplicate,
    /// and the next `ingest` applies it once the file is removed.
    @Test func anUnreadableLedgerRecordFailsItsEventAtTheWebhook() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = F.store(in: directory)
        let record = EventLedger.relativePath(vendor: .revenuecat, id: "e1")
        try Self.write(store + "/" + record, "garbage{")
        let answer = WebhookCGITests.post("revenuecat", F.revenueCat("INITIAL_PURCHASE", id: "e1", at: 0), store: store, secrets: secrets)
        #expect(WebhookCGITests.status(answer) == "Status: 200 OK", "spooled: the vendor need not retry")
        // The answer comes before the apply; the apply's verdict is in the log and the spool.
        #expect(answer.stdout.contains("\"status\": \"accepted\"") && !answer.stdout.contains("\"duplicate\""), "\(answer.stdout)")
        #expect(answer.stderr.contains(record) && answer.stderr.contains("ledger record cannot be read"), "\(answer.stderr)")
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(1)]).exitCode == 1, "not applied over the file")
        #expect(try Spool(store: EntitlementStore(root: store)).failed().count == 1, "kept for the next ingest")
        #expect(readFile(store + "/" + record) == "garbage{", "the file is left for a person")
        try FileManager.default.removeItem(atPath: store + "/" + record)
        let retried = runCLI(["ingest", "--store", store, "--secrets", secrets])
        #expect(retried.exitCode == 0 && retried.stdout.contains("1 applied"), "\(retried.stdout) \(retried.stderr)")
        #expect(runCLI(["check", "alice", "premium", "--store", store, "--at", F.at(1)]).exitCode == 0)
        #expect(runCLI(["verify", "--store", store]).exitCode == 0)
    }

    @Test func verifyReportsGarbageIndexEntriesAndPurchaseRecords() throws {
        let directory = TemporaryDirectory()
        let (store, _) = F.store(in: directory)
        let entry = AppStoreCustomerIndex.relativePath("1000")
        try Self.write(store + "/" + entry, "garbage{")
        let purchase = AwaitingPurchase.relativePath(token: "gp")
        try Self.write(store + "/" + purchase, "garbage{")
        let verify = runCLI(["verify", "--store", store])
        #expect(verify.exitCode != 0)
        #expect(verify.stdout.contains(entry) && verify.stdout.contains("points nowhere"), "\(verify.stdout)")
        #expect(verify.stdout.contains(purchase) && verify.stdout.contains("unreadable Google Play purchase record"), "\(verify.stdout)")
    }
}
