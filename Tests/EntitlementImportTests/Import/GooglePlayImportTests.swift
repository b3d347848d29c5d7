import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Google Play `SubscriptionPurchaseV2` documents (no date of their own: --at), every state of the table.
    @Suite(.tags(.cli))
    struct GooglePlay {
        static let cases: [FixtureCase] = [
            FixtureCase("googleplay/purchase-active.json", user: "play-active@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-canceled.json", user: "play-canceled@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-grace-period.json", user: "play-grace@example.com", at: true, "grace_period", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-on-hold.json", user: "play-hold@example.com", at: true, "billing_retry", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-paused.json", user: "play-paused@example.com", at: true, "paused", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-expired.json", user: "play-expired@example.com", at: true, "expired", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-trial.json", user: "play-trial@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
            FixtureCase("googleplay/purchase-no-token.json", user: "play-order@example.com", at: true, "active", verdict: "agree", transactions: 1, renewals: 1),
        ]

        @Test(arguments: cases)
        func fixture(_ fixture: FixtureCase) { fixture.check() }

        /// `check --json` before, inside and after each period: the states change at the documented instants.
        @Test(arguments: [
            ("purchase-paused.json", "play-paused@example.com", [("2026-02-15T00:00:00Z", "active", 0), ("2026-03-15T12:00:00Z", "paused", 1), ("2026-04-02T00:00:00Z", "expired", 1)]),
            ("purchase-on-hold.json", "play-hold@example.com", [("2026-02-15T00:00:00Z", "active", 0), ("2026-03-15T12:00:00Z", "billing_retry", 1)]),
            ("purchase-grace-period.json", "play-grace@example.com", [("2026-03-01T00:00:00Z", "active", 0), ("2026-03-15T12:00:00Z", "grace_period", 0), ("2026-03-20T12:00:00Z", "expired", 1)]),
            ("purchase-canceled.json", "play-canceled@example.com", [("2026-03-15T12:00:00Z", "active", 0), ("2026-03-20T09:00:00Z", "expired", 1)]),
        ])
        func statesAcrossThePeriod(file: String, user: String, checks: [(String, String, Int32)]) throws {
            let store = Store()
            #expect(store.importing([fixtures + "/googleplay/" + file, "--at", documentTimeText]).exitCode == 0)
            for (at, state, code) in checks {
                let result = runCLI(["check", user, "premium", "--store", store.path, "--at", at, "--json"])
                #expect(result.exitCode == code, "\(file) at \(at)")
                #expect((try? JSONParser.parse(result.stdout))?["state"]?.stringValue == state, "\(file) at \(at)")
            }
        }

        @Test func thePausedDocumentRecordsThePause() throws {
            let store = Store()
            _ = store.importing([fixtures + "/googleplay/purchase-paused.json", "--at", documentTimeText])
            let renewal = try #require(store.profile("play-paused@example.com")?.renewalInfo["gp-token-paused"])
            #expect(renewal.isPaused == true && renewal.resumesAt == ISODate.parse("2026-04-01T12:00:00Z") && renewal.pausedAt == ISODate.parse("2026-03-01T12:00:00Z"))
            let check = runCLI(["check", "play-paused@example.com", "premium", "--store", store.path, "--at", documentTimeText, "--json"])
            #expect((try? JSONParser.parse(check.stdout))?["resumes_at"]?.stringValue == "2026-04-01T12:00:00Z")
        }

        @Test func pendingPurchasesRecordNothing() {
            for file in ["purchase-pending.json", "purchase-pending-canceled.json"] {
                let store = Store()
                let result = store.importing([fixtures + "/googleplay/" + file, "--at", documentTimeText])
                #expect(result.exitCode == 0 && result.stderr.contains("nothing imported"), "\(result.stderr)")
                #expect(store.profileNames().isEmpty)
                #expect(runCLI(["check", "play-pending@example.com", "premium", "--store", store.path, "--at", documentTimeText]).exitCode != 0)
            }
        }

        /// `linkedPurchaseToken` joins the new purchase to the old one's subscription, which it supersedes.
        @Test func anUpgradeSupersedesTheLinkedPurchase() throws {
            let store = Store()
            _ = store.importing([fixtures + "/googleplay/purchase-active.json", "--at", "2026-03-01T00:00:00Z"])
            _ = store.importing([fixtures + "/googleplay/purchase-upgrade.json", "--at", documentTimeText])
            let profile = try #require(store.profile("play-active@example.com"))
            #expect(profile.transactions.map(\.originalTransactionID) == ["gp-token-active", "gp-token-active"])
            let check = runCLI(["check", "play-active@example.com", "premium", "--store", store.path, "--at", documentTimeText, "--json"])
            let level = try JSONParser.parse(check.stdout)
            #expect(level["transaction_id"]?.stringValue == "gp-token-upgrade" && level["expires_at"]?.stringValue == "2027-03-10T09:00:00Z")
            let history = runCLI(["status", "play-active@example.com", "--store", store.path, "--at", documentTimeText, "--explain"])
            #expect(history.stdout.contains("superseded"))
        }

        @Test func trialsAndTestPurchases() throws {
            let store = Store()
            let result = store.importing([fixtures + "/googleplay/purchase-trial.json", "--at", documentTimeText])
            #expect(result.stderr.contains("not acknowledged"))
            let transaction = try #require(store.profile("play-trial@example.com")?.transactions.first)
            #expect(transaction.type == .trialStarted && transaction.environment == .sandbox && transaction.store == .playStore)
            let fallback = Store()
            #expect(fallback.importing([fixtures + "/googleplay/purchase-no-token.json", "--at", documentTimeText]).stderr.contains("no purchaseToken"))
            #expect(fallback.profile("play-order@example.com")?.transactions.first?.transactionID == "GPA.3333-4137-0319-36762")
        }

        @Test func reimportIsIdempotent() {
            let store = Store()
            let file = fixtures + "/googleplay/purchase-paused.json"
            _ = store.importing([file, "--at", documentTimeText])
            let before = store.snapshot()
            _ = store.importing([file, "--at", documentTimeText])
            #expect(sameFiles(before, store.snapshot()))
        }
    }
}
