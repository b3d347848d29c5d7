import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Stripe subscription objects: alone (--at), in a list, inside an event (its `created`), every status.
    @Suite(.tags(.cli))
    struct Stripe {
        /// The fixtures' configuration with premium ← `prod_Premium01` too.
        static let config = "stripe/config.json"

        static let cases: [FixtureCase] = [
            FixtureCase("stripe/subscription-active.json", user: "cus_Active01", at: true, "active", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-trialing.json", user: "cus_Trial01", at: true, "active", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-past-due.json", user: "cus_PastDue01", at: true, "grace_period", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-unpaid.json", user: "cus_Unpaid01", at: true, "billing_retry", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-canceled.json", user: "cus_Canceled01", at: true, "expired", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-cancel-at-period-end.json", user: "cus_Ending01", at: true, "active", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-incomplete.json", user: "cus_Incomplete01", at: true, "billing_retry", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-incomplete-expired.json", user: "cus_IncExp01", at: true, "expired", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-paused.json", user: "cus_Paused01", at: true, "paused", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/subscription-pause-collection.json", user: "cus_PauseColl01", at: true, "paused", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
            FixtureCase("stripe/list-subscriptions.json", user: "cus_Active01", at: true, "active", verdict: "agree", transactions: 2, renewals: 2, config: Self.config),
            FixtureCase("stripe/event-subscription-updated.json", user: "cus_Event01", "paused", verdict: "agree", transactions: 1, renewals: 1, config: Self.config),
        ]

        @Test(arguments: cases)
        func fixture(_ fixture: FixtureCase) { fixture.check() }

        /// `check --json` before, inside and after each period.
        @Test(arguments: [
            ("subscription-cancel-at-period-end.json", "cus_Ending01", [("2026-03-15T12:00:00Z", "active", Int32(0)), ("2026-04-01T00:00:00Z", "expired", 1)]),
            ("subscription-past-due.json", "cus_PastDue01", [("2026-03-09T00:00:00Z", "never", 1), ("2026-03-15T12:00:00Z", "grace_period", 0), ("2026-04-10T00:00:00Z", "expired", 1)]),
            ("subscription-pause-collection.json", "cus_PauseColl01", [("2026-03-01T00:00:00Z", "active", 0), ("2026-03-15T12:00:00Z", "paused", 1), ("2026-05-15T00:00:00Z", "expired", 1)]),
            ("subscription-trialing.json", "cus_Trial01", [("2026-03-15T12:00:00Z", "active", 0), ("2026-03-24T00:00:00Z", "expired", 1)]),
        ])
        func statesAcrossThePeriod(file: String, user: String, checks: [(String, String, Int32)]) throws {
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            #expect(store.importing([fixtures + "/stripe/" + file, "--at", documentTimeText]).exitCode == 0)
            for (at, state, code) in checks {
                let result = runCLI(["check", user, "premium", "--store", store.path, "--at", at, "--json"])
                #expect(result.exitCode == code, "\(file) at \(at)")
                #expect((try? JSONParser.parse(result.stdout))?["state"]?.stringValue == state, "\(file) at \(at)")
            }
        }

        @Test func periodsAreTransactionsOfTheSubscription() throws {
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            _ = store.importing([fixtures + "/stripe/subscription-trialing.json", "--at", documentTimeText])
            let transaction = try #require(store.profile("cus_Trial01")?.transactions.first)
            #expect(transaction.transactionID == "sub_Trial01:1773100800" && transaction.originalTransactionID == "sub_Trial01")
            #expect(transaction.type == .trialStarted && transaction.environment == .sandbox && transaction.store == .stripe)
            let level = try JSONParser.parse(runCLI(["check", "cus_Trial01", "premium", "--store", store.path, "--at", documentTimeText, "--json"]).stdout)
            #expect(level["period_type"]?.stringValue == "trial")
        }

        /// A price id in config.json maps as well as the product; the metadata key of config.json names the customer.
        @Test func configurationNamesThePriceAndTheCustomerKey() throws {
            let config = #"{"schema_version": 1, "stripe": {"customer_metadata_key": "app_user_id"}, "entitlements": {"premium": {"products": ["price_premium_monthly"]}}}"#
            let store = Store(config: config)
            let result = store.importing([fixtures + "/stripe/subscription-metadata-user.json", "--at", documentTimeText])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(store.profile("stripe-app-user@example.com")?.transactions.first?.productID == "price_premium_monthly")
            #expect(store.state("stripe-app-user@example.com", "premium") == "active")
            let plain = Store(config: config)
            _ = plain.importing([fixtures + "/stripe/subscription-active.json", "--at", documentTimeText])
            #expect(plain.profile("cus_Active01") != nil, "no metadata value: the customer id")
        }

        /// Stripe's MIT test payload, verbatim: an event about a terminal reader, not a subscription.
        @Test func theMITTestPayloadImportsNothing() {
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            let result = store.importing([fixtures + "/stripe/mit-dummy-webhook-payload.json"])
            #expect(result.exitCode == 0 && result.stderr.contains("terminal.reader"), "\(result.stderr)")
            #expect(store.profileNames().isEmpty)
        }

        @Test func bothStoresShowInSummaryAndFind() {
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            _ = store.importing([fixtures + "/stripe/subscription-active.json", "--at", documentTimeText])
            _ = store.importing([fixtures + "/googleplay/purchase-paused.json", "--at", documentTimeText])
            let summary = runCLI(["summary", "--store", store.path, "--at", documentTimeText, "--json"])
            let stores = (try? JSONParser.parse(summary.stdout))?["entitlements"]?[0]?["stores"]
            #expect(stores?["stripe"]?["active"] == JSONValue.int(1) && stores?["play_store"]?["paused"] == JSONValue.int(1))
            let stripe = runCLI(["find", "--store-name", "stripe", "--store", store.path, "--at", documentTimeText, "--output", "csv", "--no-headers"])
            #expect(stripe.stdout.hasPrefix("cus_Active01,premium,active,"))
            let play = runCLI(["find", "--store-name", "play_store", "--state", "paused", "--store", store.path, "--at", documentTimeText, "--output", "csv", "--no-headers"])
            #expect(play.stdout.hasPrefix("play-paused@example.com,premium,paused,"))
        }
    }
}
