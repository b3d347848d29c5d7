import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Importing the same document twice changes nothing the second time (docs/import.md, section 11).
    @Suite(.tags(.cli))
    struct Idempotency {
        static var everyValidFixture: [FixtureCase] {
            var seen = Set<String>()
            return (AppStore.cases + RevenueCat.cases + Adapty.cases + Qonversion.cases).filter { seen.insert($0.file).inserted }
        }

        @Test(arguments: everyValidFixture)
        func secondImportChangesNothing(_ fixture: FixtureCase) {
            let store = Store()
            let first = store.importing(fixture.arguments)
            #expect(first.exitCode == 0)
            let before = store.snapshot()
            let (second, summary) = store.importJSON(fixture.arguments, now: clock.addingTimeInterval(3600))
            #expect(second.exitCode == 0)
            let document = summary.document()
            #expect(document.added == 0 && document.updated == 0, "transactions")
            #expect(document.renewalsAdded == 0 && document.renewalsUpdated == 0, "renewal info")
            #expect(document.unchanged == fixture.transactions)
            #expect(document.configAdded.isEmpty)
            #expect(document.value["profile_created"] == .bool(false))
            #expect(document.value["custom_attributes"]?["set"]?.arrayValue.isEmpty == true)
            #expect(sameFiles(before, store.snapshot()), "the store must be byte-identical, with the same modification times")
        }

        @Test func relistingAFileInOneRunReportsItUnchanged() {
            let store = Store()
            let file = fixtures + "/revenuecat/subscriber-active.json"
            let (result, summary) = store.importJSON([file, file])
            #expect(result.exitCode == 0)
            #expect(summary.document(0).added == 2)
            #expect(summary.document(1).added == 0 && summary.document(1).unchanged == 2)
            #expect(summary.document(1).value["profile_created"] == .bool(false))
            #expect(store.profile("rc-active@example.com")?.transactions.count == 2)
        }

        @Test func aNewerExportUpdatesInPlace() throws {
            let store = Store()
            let original = try #require(readFile(fixtures + "/revenuecat/subscriber-active.json"))
            #expect(store.importing(["-"], stdin: original).exitCode == 0)
            let refunded = original.replacingOccurrences(of: "\"refunded_at\": null,\n        \"store\": \"app_store\",\n        \"store_transaction_id\": \"2000000000100102\"",
                                                         with: "\"refunded_at\": \"2026-03-10T08:00:00Z\",\n        \"store\": \"app_store\",\n        \"store_transaction_id\": \"2000000000100102\"")
            #expect(refunded != original)
            let (result, summary) = store.importJSON(["-"], stdin: refunded)
            #expect(result.exitCode == 0)
            #expect(summary.document().updated == 1 && summary.document().unchanged == 1)
            #expect(summary.document().renewalsUpdated == 1)
            #expect(store.profile("rc-active@example.com")?.transactions.count == 2)
            #expect(store.state("rc-active@example.com", "premium") == "revoked")
            // The vendor reverses the refund: import follows it.
            let (_, again) = store.importJSON(["-"], stdin: original)
            #expect(again.document().updated == 1)
            #expect(store.state("rc-active@example.com", "premium") == "active")
        }

        @Test func importNeverUndoesASupportRevocation() {
            let store = Store()
            let file = fixtures + "/revenuecat/subscriber-active.json"
            #expect(store.importing([file]).exitCode == 0)
            let revoke = runCLI(["revoke", "--yes", "rc-active@example.com", "premium", "--include-store", "--store", store.path, "--reason", "chargeback", "--actor", "dana"],
                                now: documentTime)
            #expect(revoke.exitCode == 0)
            let before = store.snapshot()
            let (result, summary) = store.importJSON([file])
            #expect(result.exitCode == 0)
            #expect(summary.document().updated == 0)
            #expect(sameFiles(before, store.snapshot()))
            let transaction = store.profile("rc-active@example.com")?.transactions.first { $0.productID == "com.example.premium.monthly" }
            #expect(transaction?.revokedBy == "dana" && transaction?.revocationReason == "chargeback")
        }

        @Test func twoVendorsKeepTheirOwnRawData() throws {
            let store = Store()
            let user = "rc-active@example.com"
            #expect(store.importing([fixtures + "/revenuecat/subscriber-active.json"]).exitCode == 0)
            // The same App Store purchase as Apple signed it: RevenueCat's store_transaction_id is Apple's transactionId.
            let apple = """
                {"transactionId": "2000000000100102", "originalTransactionId": "2000000000100101", "productId": "com.example.premium.monthly",
                 "purchaseDate": 1772355600000, "expiresDate": 1775034000000, "type": "Auto-Renewable Subscription",
                 "transactionReason": "RENEWAL", "environment": "Production", "signedDate": 1773576000000}
                """
            let (result, summary) = store.importJSON(["-", "--user", user], stdin: apple)
            #expect(result.exitCode == 0)
            #expect(summary.document().updated == 1 && summary.document().added == 0)
            let transaction = try #require(store.profile(user)?.transactions.first)
            #expect(transaction.raw["vendor"]?["revenuecat"] != nil && transaction.raw["vendor"]?["appstore"] != nil)
            // Apple's real original id replaces RevenueCat's synthesized one, never the other way round.
            #expect(transaction.originalTransactionID == "2000000000100101")
            let (_, back) = store.importJSON([fixtures + "/revenuecat/subscriber-active.json"])
            #expect(store.profile(user)?.transactions.first?.originalTransactionID == "2000000000100101")
            #expect(back.document().added == 0)
            #expect(store.profile(user)?.transactions.first?.raw["vendor"]?["appstore"] != nil)
        }
    }
}
