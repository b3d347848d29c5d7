import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// The work, counted, of the shapes whose cost grew as entitlements ×
    /// transactions: one profile of thousands of entitlements (`status`, `find`, `summary`),
    /// the vendor verdicts of a Qonversion, Adapty or RevenueCat document of thousands of
    /// entitlements (`import`), and many documents merged into one customer (`import -`).
    /// Each size is 4× the last; a step under 6× is n log n, where the old code took 16×.
    struct ManyEntitlementsWorkTests {
        static let sizes = [1_000, 4_000, 16_000]
        static let start = ISODate.parse("2020-01-01T00:00:00Z")!
        static let at = ISODate.parse("2020-06-01T00:00:00Z")!

        static func expectNLogN(_ steps: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
            print("work for \(sizes): \(steps) steps")
            for (smaller, larger) in zip(steps, steps.dropFirst()) {
                #expect(Double(larger) < 6 * Double(smaller), "work grew \(Double(larger) / Double(smaller))×: \(steps)", sourceLocation: sourceLocation)
            }
        }

        /// `count` entitlements, each unlocked by its own product, and one purchase of each.
        static func store(_ count: Int) -> (ProductConfiguration, Profile) {
            let configuration = ProductConfiguration(entitlements: (0..<count).map { .init(id: "e\($0)", products: ["p\($0)"]) })
            var profile = Profile(profileID: "p", customerUserID: "many", createdAt: start)
            profile.transactions = (0..<count).map {
                Transaction(transactionID: "t\($0)", productID: "p\($0)", store: .appStore, type: .subscriptionStarted, purchasedAt: start,
                            expiresAt: start.addingTimeInterval(86_400 * 365))
            }
            return (configuration, profile)
        }

        static func counted(_ body: (Int, WorkCounter) -> Void) -> [Int] {
            sizes.map { size in
                let counter = WorkCounter()
                body(size, counter)
                return counter.steps
            }
        }

        @Test func statusFindAndSummaryOfManyEntitlements() {
            Self.expectNLogN(Self.counted { size, counter in
                let (configuration, profile) = Self.store(size)
                var engine = StatusEngine(configuration: configuration)
                engine.counter = counter
                #expect(engine.accessLevels(for: profile, at: Self.at).allSatisfy { $0.state == .active })
                #expect(FindQuery().matches(profile, engine: engine, at: Self.at).count == size)
                var summary = StoreSummary()
                summary.add(profile, engine: engine, at: Self.at)
                #expect(summary.count("e0", .active) == 1)
            })
        }

        static func qonversion(_ count: Int) -> String {
            "[" + (0..<count).map { index in
                #"{"id": "e\#(index)", "active": 1, "associated_product": "p\#(index)", "started_timestamp": 1577836800, "expiration_timestamp": 1609459200, "#
                    + #""store_transactions": [{"transaction_id": "9\#(index)", "original_transaction_id": "9\#(index)", "transaction_timestamp": 1577836800, "#
                    + #""expiration_timestamp": 1609459200, "type": "subscription_started", "environment": "production"}]}"#
            }.joined(separator: ",\n") + "]"
        }

        static func adapty(_ count: Int) -> String {
            #"{"profile_id": "a", "customer_user_id": "many", "paid_access_levels": {"# + (0..<count).map { index in
                #""e\#(index)": {"id": "e\#(index)", "is_active": true, "is_lifetime": false, "vendor_product_id": "p\#(index)", "store": "app_store", "#
                    + #""activated_at": "2020-01-01T00:00:00.000000+0000", "expires_at": "2021-01-01T00:00:00.000000+0000", "will_renew": true, "#
                    + #""is_in_grace_period": false, "is_refund": false}"#
            }.joined(separator: ",\n") + "}}"
        }

        static func revenueCat(_ count: Int) -> String {
            let entitlements = (0..<count).map { index in
                #""e\#(index)": {"expires_date": "2021-01-01T00:00:00Z", "product_identifier": "p\#(index)", "purchase_date": "2020-01-01T00:00:00Z"}"#
            }
            let subscriptions = (0..<count).map { index in
                #""p\#(index)": {"expires_date": "2021-01-01T00:00:00Z", "original_purchase_date": "2020-01-01T00:00:00Z", "#
                    + #""purchase_date": "2020-01-01T00:00:00Z", "period_type": "normal", "store": "app_store", "is_sandbox": false}"#
            }
            return #"{"request_date": "2020-06-01T00:00:00Z", "subscriber": {"original_app_user_id": "many", "entitlements": {"#
                + entitlements.joined(separator: ",\n") + #"}, "subscriptions": {"# + subscriptions.joined(separator: ",\n") + "}}}"
        }

        @Test(arguments: ["qonversion", "adapty", "revenuecat"])
        func verdictsOfADocumentOfManyEntitlements(format: String) throws {
            Self.expectNLogN(Self.counted { size, counter in
                let text = format == "qonversion" ? Self.qonversion(size) : format == "adapty" ? Self.adapty(size) : Self.revenueCat(size)
                guard let document = try? DocumentMapper.map(Array(text.utf8), file: "many.json", format: Vendor(rawValue: format), jws: .decodeOnly) else {
                    Issue.record("the \(format) document did not map")
                    return
                }
                // The extender over a configuration that has them all already, then over an empty one.
                let (configuration, added) = ConfigurationExtender.extend(ProductConfiguration(entitlements: []), with: document.productMappings, counter: counter)
                #expect(added.count == size)
                #expect(ConfigurationExtender.extend(configuration, with: document.productMappings, counter: counter).1.isEmpty)
                if format == "revenuecat" {
                    // The entitlements' periods against the document's purchases (none is unexplained).
                    var again = document
                    let entitlements = (0..<size).map {
                        RevenueCatMapper.Entitlement(id: "e\($0)", productID: "p\($0)", expiresAt: ISODate.parse("2021-01-01T00:00:00Z"),
                                                     graceUntil: nil, purchasedAt: Self.start)
                    }
                    RevenueCatMapper.recordUnexplainedPeriods(of: entitlements, into: &again, counter: counter)
                    #expect(again.transactions.count == document.transactions.count)
                }
                let rows = Reconciler.reconcile(document, configuration: configuration, at: Self.at, counter: counter)
                #expect(rows.count == size)
                #expect(rows.allSatisfy { $0.result == .agree })
            })
        }

        @Test func manyDocumentsForOneCustomer() {
            Self.expectNLogN(Self.counted { size, counter in
                var profile = Profile(profileID: "p", customerUserID: "many", createdAt: Self.start)
                var positions: ProfileMerger.Positions?
                for index in 0..<size {
                    var document = ImportDocument(format: .qonversion, shape: .entitlements)
                    let purchased = Self.start.addingTimeInterval(Double(index) * 3_600)
                    document.transactions = [MappedTransaction(Transaction(transactionID: "9\(index)", originalTransactionID: "9", productID: "p",
                                                                           store: .appStore, type: .subscriptionRenewed, purchasedAt: purchased,
                                                                           expiresAt: purchased.addingTimeInterval(3_600)), vendor: .null)]
                    _ = ProfileMerger.merge(document, into: &profile, positions: &positions, counter: counter)
                }
                #expect(profile.transactions.count == size)
            })
        }
    }
}
