import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// The work, counted, of import's shapes whose cost grew as entitlements × transactions:
    /// the vendor verdicts of a Qonversion, Adapty or RevenueCat document of thousands of
    /// entitlements (`import`), and many documents merged into one customer (`import -`).
    /// Each size is 4× the last; a step under 6× is n log n, where the old code took 16×
    /// (`WorkGrowth`; a profile of thousands of entitlements: `ManyEntitlementsWorkTests`).
    struct ManyEntitlementsImportWorkTests {
        typealias W = WorkGrowth

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
            W.expectNLogN(W.counters { size, counter in
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
                                                     graceUntil: nil, purchasedAt: W.start)
                    }
                    RevenueCatMapper.recordUnexplainedPeriods(of: entitlements, into: &again, counter: counter)
                    #expect(again.transactions.count == document.transactions.count)
                }
                let rows = Reconciler.reconcile(document, configuration: configuration, at: W.at, counter: counter)
                #expect(rows.count == size)
                #expect(rows.allSatisfy { $0.result == .agree })
            }.map(\.steps))
        }

        @Test func manyDocumentsForOneCustomer() {
            W.expectNLogN(W.counters { size, counter in
                var profile = Profile(profileID: "p", customerUserID: "many", createdAt: W.start)
                var positions: ProfileMerger.Positions?
                for index in 0..<size {
                    var document = ImportDocument(format: .qonversion, shape: .entitlements)
                    let purchased = W.start.addingTimeInterval(Double(index) * 3_600)
                    document.transactions = [MappedTransaction(Transaction(transactionID: "9\(index)", originalTransactionID: "9", productID: "p",
                                                                           store: .appStore, type: .subscriptionRenewed, purchasedAt: purchased,
                                                                           expiresAt: purchased.addingTimeInterval(3_600)), vendor: .null)]
                    _ = ProfileMerger.merge(document, into: &profile, positions: &positions, counter: counter)
                }
                #expect(profile.transactions.count == size)
            }.map(\.steps))
        }
    }
}
