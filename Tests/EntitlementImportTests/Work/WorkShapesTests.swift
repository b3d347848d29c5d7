import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// The import shapes that ManyEntitlementsImportWorkTests leaves to the parts, counted
    /// end to end (never timed): a vendor document whose entitlements each carry many
    /// transactions (entitlements × transactions), and many documents for one customer read
    /// from standard input as `import -` reads it (split, mapped, merged). Each size is 4×
    /// the last; a step under 6× is n log n, where the old code took 16× (`WorkGrowth`; what
    /// `status` prints of thousands of entitlements: `StatusOutputWorkTests`).
    struct WorkShapesTests {
        typealias W = WorkGrowth

        /// A Qonversion document of `entitlements` entitlements, each with `renewals` store transactions.
        static func qonversion(entitlements: Int, renewals: Int) -> String {
            "[" + (0..<entitlements).map { index in
                let transactions = (0..<renewals).map { renewal in
                    let start = 1_577_836_800 + renewal * 86_400
                    return #"{"transaction_id": "9\#(index)x\#(renewal)", "original_transaction_id": "9\#(index)x0", "transaction_timestamp": \#(start), "#
                        + #""expiration_timestamp": \#(start + 86_400), "type": "\#(renewal == 0 ? "subscription_started" : "subscription_renewed")", "#
                        + #""environment": "production"}"#
                }
                return #"{"id": "e\#(index)", "active": 1, "associated_product": "p\#(index)", "started_timestamp": 1577836800, "#
                    + #""expiration_timestamp": \#(1_577_836_800 + renewals * 86_400), "store_transactions": ["# + transactions.joined(separator: ", ") + "]}"
            }.joined(separator: ",\n") + "]"
        }

        /// More entitlements, then more transactions per entitlement: each step 4× the work of the last.
        @Test(arguments: [true, false])
        func verdictsOfEntitlementsTimesTransactions(growingEntitlements: Bool) {
            W.expectNLogN(W.sizes.map { size in
                let counter = WorkCounter()
                let (entitlements, renewals) = growingEntitlements ? (size / 100, 100) : (10, size / 10)
                let text = Self.qonversion(entitlements: entitlements, renewals: renewals)
                guard let document = try? DocumentMapper.map(Array(text.utf8), file: "shape.json", format: .qonversion, jws: .decodeOnly) else {
                    Issue.record("the document did not map")
                    return 0
                }
                #expect(document.transactions.count == entitlements * renewals)
                let (configuration, _) = ConfigurationExtender.extend(ProductConfiguration(entitlements: []), with: document.productMappings, counter: counter)
                let at = Date(timeIntervalSince1970: 1_577_836_800 + Double(renewals) * 86_400 - 3_600)
                let rows = Reconciler.reconcile(document, configuration: configuration, at: at, counter: counter)
                #expect(rows.count == entitlements)
                #expect(rows.allSatisfy { $0.result == .agree })
                var profile = Profile(profileID: "p", customerUserID: "shape", createdAt: W.start)
                var positions: ProfileMerger.Positions?
                _ = ProfileMerger.merge(document, into: &profile, positions: &positions, counter: counter)
                #expect(profile.transactions.count == entitlements * renewals)
                return counter.steps
            })
        }

        /// `import - --user many` of one renewal a document, as JSON Lines on standard input:
        /// split, each piece mapped, all merged into the one customer in order.
        @Test func manyDocumentsForOneCustomerOnStandardInput() {
            W.expectNLogN(W.counters { size, counter in
                let input = (0..<size).map { index in
                    let start = 1_577_836_800 + index * 3_600
                    return #"[{"id": "premium", "active": 1, "associated_product": "monthly", "started_timestamp": 1577836800, "#
                        + #""expiration_timestamp": \#(start + 3_600), "store_transactions": [{"transaction_id": "9\#(index)", "#
                        + #""original_transaction_id": "90", "transaction_timestamp": \#(start), "expiration_timestamp": \#(start + 3_600), "#
                        + #""type": "\#(index == 0 ? "subscription_started" : "subscription_renewed")", "environment": "production"}]}]"#
                }.joined(separator: "\n")
                let pieces = InputSplitter.split(Array(input.utf8))
                #expect(pieces.count == size)
                var profile = Profile(profileID: "p", customerUserID: "many", createdAt: W.start)
                var positions: ProfileMerger.Positions?
                for piece in pieces {
                    guard let document = try? DocumentMapper.map(piece.bytes, file: "<stdin>", format: .qonversion, line: piece.line, column: piece.column,
                                                                 jws: .decodeOnly) else {
                        Issue.record("line \(piece.line) did not map")
                        return
                    }
                    _ = ProfileMerger.merge(document, into: &profile, positions: &positions, counter: counter)
                }
                #expect(profile.transactions.count == size)
            }.map(\.steps))
        }
    }
}
