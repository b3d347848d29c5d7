import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Stripe documents beyond one customer's current-version subscription: a list that spans
    /// customers, older API versions' shapes (Stripe's own SDK test data), and a subscription
    /// that only `--format` tells from a RevenueCat API v2 object.
    @Suite(.tags(.cli))
    struct StripeShapes {
        static let config = "stripe/config.json"
        static let many = fixtures + "/stripe/list-subscriptions-many-customers.json"
        static let sdk = fixtures + "/stripe/sdk/"

        /// `GET /v1/subscriptions` answers every customer's subscriptions: each goes to its customer in one run.
        @Test func aListSpanningCustomersImportsEachIntoItsCustomer() throws {
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            let result = store.importing([Self.many, "--at", documentTimeText])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(store.profileNames().sorted() == ["cus_ManyA.json", "cus_ManyB.json", "cus_ManyC.json"])
            #expect(store.profile("cus_ManyA")?.transactions.count == 2, "both of cus_ManyA's subscriptions")
            #expect(store.state("cus_ManyA", "premium") == "active")
            #expect(store.state("cus_ManyB", "premium") == "active")
            #expect(store.state("cus_ManyC", "premium") == "grace_period")
            // The summary, per customer.
            #expect(result.stdout.contains("Stripe subscriptions of customer 1 of 3 (cus_ManyA) → cus_ManyA (new profile)\n  transactions: 2 added"), "\(result.stdout)")
            #expect(result.stdout.contains("of customer 2 of 3 (cus_ManyB) → cus_ManyB (new profile)\n  transactions: 1 added"))
            #expect(result.stdout.contains("of customer 3 of 3 (cus_ManyC) → cus_ManyC (new profile)"))
            #expect(result.stdout.contains("Total: 4 transactions added"))
            // A second run changes nothing.
            let again = store.importing([Self.many, "--at", documentTimeText])
            #expect(again.stdout.contains("Total: 0 transactions added, 0 updated, 4 unchanged"), "\(again.stdout)")
        }

        /// config.json's metadata key names each customer's user on its own subscriptions.
        @Test func eachCustomerOfAListTakesItsOwnMetadataUser() {
            let config = #"{"schema_version": 1, "stripe": {"customer_metadata_key": "app_user_id"}, "entitlements": {"premium": {"products": ["prod_Premium01"]}}}"#
            let store = Store(config: config)
            let (result, summary) = store.importJSON([Self.many, "--at", documentTimeText])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(store.profileNames().sorted() == ["cus_ManyA.json", "cus_ManyC.json", "many-b@example.com.json"])
            let users = (0..<3).map { summary.document($0).value["user"]?.stringValue }
            #expect(users == ["cus_ManyA", "many-b@example.com", "cus_ManyC"])
        }

        /// `--user` would pour several customers into one: refused, nothing written.
        @Test func aListSpanningCustomersRefusesUser() {
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            let result = store.importing([Self.many, "--user", "one@example.com", "--at", documentTimeText])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("the list holds the subscriptions of 3 customers; --user would import them all into one user"), "\(result.stderr)")
            #expect(store.profileNames().isEmpty)
        }

        /// stripe-java's 2017 subscription: items carry `plan` (with `product`), no `price`.
        @Test func itemsWithAPlanAndNoPriceReadThePlan() throws {
            let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["prod_123"]}}}"#
            let store = Store(config: config)
            let result = store.importing([Self.sdk + "stripe-java-subscription-2017.json", "--at", "2017-07-20T00:00:00Z"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            let transaction = try #require(store.profile("cus_123")?.transactions.first)
            #expect(transaction.productID == "prod_123" && transaction.originalTransactionID == "sub_123")
            #expect(transaction.transactionID == "sub_123:1500251956" && transaction.environment == .sandbox)
            #expect(store.state("cus_123", "premium", at: "2017-07-20T00:00:00Z") == "active")
            #expect(store.state("cus_123", "premium", at: "2017-08-20T00:00:00Z") == "expired")
            // The plan's id maps as a price id does.
            let byPlan = Store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["pl_123"]}}}"#)
            _ = byPlan.importing([Self.sdk + "stripe-java-subscription-2017.json", "--at", "2017-07-20T00:00:00Z"], updateConfig: false)
            #expect(byPlan.state("cus_123", "premium", at: "2017-07-20T00:00:00Z") == "active")
        }

        /// stripe-dotnet's 2014 subscription: no `items`, no top-level `livemode`, its own `plan`
        /// (which names no product: the plan's id is the product). Read with and without `--format stripe`.
        @Test(arguments: [[], ["--format", "stripe"]])
        func aSubscriptionWithItsOwnPlanIsStripe(_ format: [String]) throws {
            let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["-JYI_nRwd_ltcGRLnVys"]}}}"#
            let store = Store(config: config)
            let result = store.importing([Self.sdk + "stripe-dotnet-subscription-2014.json", "--at", "2014-12-10T00:00:00Z"] + format)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("RevenueCat"))
            #expect(result.stdout.contains("Stripe subscription → cus_5GC5XeHUC4TmO9"))
            let transaction = try #require(store.profile("cus_5GC5XeHUC4TmO9")?.transactions.first)
            #expect(transaction.originalTransactionID == "sub_5GCI2FDm9cMQTl" && transaction.productID == "-JYI_nRwd_ltcGRLnVys")
            #expect(store.state("cus_5GC5XeHUC4TmO9", "premium", at: "2014-12-10T00:00:00Z") == "active")
            #expect(store.state("cus_5GC5XeHUC4TmO9", "premium", at: "2015-01-04T00:00:00Z") == "expired")
        }

        /// A bare `"object": "subscription"` whose other fields name neither vendor: detection does not
        /// guess (it names both), and `--format` decides.
        @Test func aSubscriptionNamingNeitherVendorIsAmbiguousUntilFormatDecides() {
            let body = #"{"object": "subscription", "id": "sub_X", "status": "active", "customer": "cus_X"}"#
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            let guessed = store.importing(["-", "--at", documentTimeText], stdin: body)
            #expect(guessed.exitCode == 2)
            #expect(guessed.stderr.contains("ambiguous document") && guessed.stderr.contains("--format stripe"), "\(guessed.stderr)")
            #expect(!guessed.stderr.contains("is not imported by this version"))
            let stripe = store.importing(["-", "--at", documentTimeText, "--format", "stripe"], stdin: body)
            #expect(stripe.stderr.contains("Stripe") || stripe.exitCode == 4, "read as Stripe: \(stripe.stderr)")
            #expect(!stripe.stderr.contains("RevenueCat"), "\(stripe.stderr)")
            let revenueCat = store.importing(["-", "--at", documentTimeText, "--format", "revenuecat"], stdin: body)
            #expect(revenueCat.stderr.contains("RevenueCat API v2 subscription object is not imported by this version"), "\(revenueCat.stderr)")
        }

        /// The 2012 events of stripe-java's webhook-events.json (no `"object": "event"`; subscriptions
        /// without an `id`, kept under their customer's): each imports, by its `created`.
        @Test func eventsWithoutObjectEventAreRead() throws {
            let events = try JSONParser.parse(try #require(readFile(Self.sdk + "stripe-java-webhook-events-2012.json"))).arrayValue
            let store = Store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["FR010_00000000000000"]}}}"#)
            var types: [String: String] = [:]
            for event in events {
                let type = event["type"]?.stringValue ?? "?"
                let result = store.importing(["-"], stdin: String(decoding: JSONWriter().bytes(event), as: UTF8.self))
                #expect(result.exitCode == 0, "\(type): \(result.stderr)")
                #expect(result.stdout.contains("Stripe event \(type)"), "\(type): \(result.stdout)")
                types[type] = result.stdout
            }
            #expect(types["charge.refunded"]?.contains("nothing to import") == true)
            #expect(types["customer.subscription.created"]?.contains("→ cus_00000000000000 (new profile)") == true)
            let transaction = try #require(store.profile("cus_00000000000000")?.transactions.first)
            #expect(transaction.originalTransactionID == "cus_00000000000000" && transaction.productID == "FR010_00000000000000")
            // The deleted event ended the subscription on 2012-04-10 (ended_at); access before that.
            #expect(store.state("cus_00000000000000", "premium", at: "2012-03-01T00:00:00Z") == "active")
            #expect(store.state("cus_00000000000000", "premium", at: "2012-05-01T00:00:00Z") != "active")
        }

        /// A subscription naming neither itself nor its customer carries nothing to keep: refused by name.
        @Test func aSubscriptionWithoutIdOrCustomerIsRefusedByName() {
            let body = #"{"type": "customer.subscription.created", "id": "evt_1", "created": 1326853478, "data": {"object": {"object": "subscription", "status": "active", "livemode": false, "current_period_start": 1329420141, "current_period_end": 1361042541, "plan": {"object": "plan", "id": "FR010"}}}}"#
            let store = Store(config: readFile(fixtures + "/" + Self.config))
            let result = store.importing(["-"], stdin: body)
            #expect(result.exitCode == 4)
            #expect(result.stderr.contains("a Stripe subscription with neither its own \"id\" nor a \"customer\""), "\(result.stderr)")
            #expect(store.profileNames().isEmpty)
        }
    }
}
