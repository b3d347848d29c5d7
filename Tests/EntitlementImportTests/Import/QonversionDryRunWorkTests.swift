import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// `import --dry-run` of one Qonversion customer with thousands of entitlements, against a
    /// configuration that maps them all: the work of settling the document (config.json's
    /// products against each transaction), merging it and reconciling it, counted. 4× the
    /// entitlements may cost at most 4.5× the work (it cost 4.6–6.5×: settling scanned the
    /// whole configuration for every transaction).
    @Suite(.tags(.unit))
    struct QonversionDryRunWork {
        static let sizes = [1_000, 4_000]
        static let at = ISODate.parse("2020-06-01T00:00:00Z")!

        static func document(_ count: Int) -> String {
            "[" + (0..<count).map { index in
                #"{"id": "e\#(index)", "active": 1, "associated_product": "p\#(index)", "started_timestamp": 1577836800, "expiration_timestamp": 1609459200, "#
                    + #""store_transactions": [{"transaction_id": "9\#(index)", "original_transaction_id": "9\#(index)", "transaction_timestamp": 1577836800, "#
                    + #""expiration_timestamp": 1609459200, "type": "subscription_started", "environment": "production"}]}"#
            }.joined(separator: ",\n") + "]"
        }

        @Test func settleMergeAndReconcileGrowLinearly() throws {
            var steps: [Int] = []
            for size in Self.sizes {
                let counter = WorkCounter()
                let mapped = try DocumentMapper.map(Array(Self.document(size).utf8), file: "many.json", format: .qonversion, jws: .decodeOnly)
                let configuration = ProductConfiguration(entitlements: (0..<size).map { .init(id: "e\($0)", products: ["p\($0)"]) })
                // Every transaction could be configured by another id, as a Stripe price can.
                var document = mapped
                for index in document.transactions.indices { document.transactions[index].alternativeProductIDs = ["alt\(index)"] }
                let settled = document.settled(at: Self.at, configuration: configuration, counter: counter)
                #expect(settled.transactions.allSatisfy { $0.transaction.productID?.hasPrefix("p") == true })
                var profile = Profile(profileID: "p", customerUserID: "many", createdAt: Self.at)
                var positions: ProfileMerger.Positions?
                _ = ProfileMerger.merge(settled, into: &profile, positions: &positions, counter: counter)
                let rows = Reconciler.reconcile(settled, configuration: configuration, at: Self.at, counter: counter)
                #expect(rows.count == size)
                steps.append(counter.steps)
            }
            print("dry-run work for \(Self.sizes): \(steps) steps")
            #expect(Double(steps[1]) <= 4.5 * Double(steps[0]), "work grew \(Double(steps[1]) / Double(steps[0]))×: \(steps)")
        }
    }
}
