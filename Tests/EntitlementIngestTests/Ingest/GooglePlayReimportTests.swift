import Foundation
import Testing
@testable import EntitlementIngest
import EntitlementCLITestSupport
import EntitlementTestSupport

/// Importing the same Google Play documents again changes no byte of the store (the purchase
/// record keeps its `imported_at`), so a team store makes no commit; a notification after the
/// import makes the next import count again.
@Suite(.tags(.cli))
struct GooglePlayReimportTests {
    static let document = repositoryRoot + "/Fixtures/import/googleplay/purchase-active.json"

    static func files(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] where !path.hasPrefix(".lock") {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: root + "/" + path)
            }
        }
        return files
    }

    @Test func theSameDocumentImportedAgainChangesNoByte() throws {
        let directory = TemporaryDirectory()
        let (store, secrets) = StripeEventTests.store(in: directory)
        writeFile(store + "/config.json", readFile(repositoryRoot + "/Fixtures/import/config.json")!)
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: GooglePlayNotificationTests.subscription(2)).exitCode == 0)
        let first = runCLI(["import", Self.document, "--at", "2026-03-15T12:05:00Z", "--store", store])
        #expect(first.exitCode == 0, "\(first.stderr)")
        let before = Self.files(store)
        let record = try #require(before[AwaitingPurchase.relativePath(token: "gp-token-active")])
        #expect(String(decoding: record, as: UTF8.self).contains("2026-03-15T12:05:00Z"))
        let again = runCLI(["import", Self.document, "--at", "2026-03-16T08:00:00Z", "--store", store])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(Self.files(store) == before, "a second import of the same document rewrote the store")
        // A newer notification awaits the document again, and the next import records itself.
        let renewed = GooglePlayNotificationTests.push(["subscriptionNotification": ["version": "1.0", "notificationType": 2, "purchaseToken": "gp-token-active"]],
                                                       messageID: "2", eventTime: "1773748800000")
        #expect(runCLI(["ingest", "--stdin", "--store", store, "--secrets", secrets], stdin: renewed).exitCode == 0)
        #expect(runCLI(["ingest", "--status", "--store", store, "--secrets", secrets]).stdout.contains("awaiting"))
        #expect(runCLI(["import", Self.document, "--at", "2026-03-17T13:00:00Z", "--store", store]).exitCode == 0)
        #expect(!runCLI(["ingest", "--status", "--store", store, "--secrets", secrets]).stdout.contains("awaiting"))
    }
}
