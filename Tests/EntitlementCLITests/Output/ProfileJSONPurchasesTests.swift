import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `status --json`'s one-time purchases, written a few copies each, are the bytes the
    /// member-by-member stream writes.
    struct ProfileJSONPurchasesTests {
        /// Purchases of few or many products (more than the groups compare one by one), in
        /// or out of date order (ties included), refunded, sandbox, with ids to escape.
        static func purchases(_ random: inout SplitMix64) -> Profile {
            var profile = ProfileGenerator.profile(&random)
            let productCount = [1, 3, 16, 17, 40][ProfileGenerator.draw(&random, 5)]
            let ids = ["p1", "2000000956480668", "with \"quote\"", "tab\tid", "é-id", ""]
            var date = ProfileGenerator.instant(&random)
            for number in 0..<ProfileGenerator.draw(&random, 60) {
                let type: TransactionType = [.consumablePurchase, .nonConsumablePurchase, TransactionType(rawValue: "bundle")][ProfileGenerator.draw(&random, 3)]
                let id = ids[ProfileGenerator.draw(&random, ids.count)] + "-\(number)"
                let product = ProfileGenerator.draw(&random, 8) == 0 ? "prod \"\(number % productCount)\"" : "com.example.p\(number % productCount)"
                var transaction = Transaction(transactionID: id, originalTransactionID: ProfileGenerator.draw(&random, 2) == 0 ? nil : "o\(number)",
                                              productID: product, store: ProfileGenerator.draw(&random, 4) == 0 ? .playStore : .appStore, type: type,
                                              purchasedAt: date, expiresAt: nil,
                                              environment: ProfileGenerator.draw(&random, 4) == 0 ? .sandbox : .production)
                if ProfileGenerator.draw(&random, 5) == 0 { transaction.revokedAt = date }
                profile.transactions.append(transaction)
                // Mostly forward, sometimes the same instant, sometimes back.
                date = date.addingTimeInterval(Double([3600, 0, -7200, 86_400, 0.5][ProfileGenerator.draw(&random, 5)]))
            }
            return profile
        }

        @Test func purchasesMatchTheStream() {
            var random = SplitMix64(seed: 2026)
            for round in 0..<400 {
                let profile = Self.purchases(&random)
                for depth in 0..<3 {
                    var streamed = JSONStream(), copied = JSONStream()
                    for _ in 0..<depth {
                        streamed.beginObject(); streamed.key("a")
                        copied.beginObject(); copied.key("a")
                    }
                    Self.writeNonSubscriptions(profile, into: &streamed)
                    copied.value { depth, sink in ProfileJSON.appendNonSubscriptions(profile, depth: depth, to: sink) }
                    for _ in 0..<depth {
                        streamed.endObject()
                        copied.endObject()
                    }
                    #expect(copied.bytes == streamed.bytes, "round \(round), depth \(depth)")
                }
            }
        }

        /// `status --json` written out in runs as it is made (`StatusCommand`) is the same
        /// document as the one rendered whole, for profiles large enough to be drained many times.
        @Test func aDrainedDocumentIsTheWholeDocument() {
            var random = SplitMix64(seed: 14_0031)
            let engine = StatusEngine(configuration: UnitTests.Fixture.configuration)
            for round in 0..<6 {
                var profile = Self.purchases(&random)
                for _ in 0..<(16 + 8 * round) { profile.transactions += Self.purchases(&random).transactions.map { transaction in
                    var transaction = transaction
                    transaction.transactionID += "-\(profile.transactions.count)"
                    return transaction
                } }
                profile.transactions += ProfileGenerator.profile(&random).transactions
                let date = ProfileGenerator.instant(&random)
                let whole = ByteSink()
                ProfileJSON.render(profile, engine: engine, at: date, explain: round % 2 == 0, into: whole)
                var parts: [UInt8] = []
                var drains = 0
                let draining = ByteSink(capacity: 16) { sink in
                    parts += sink.array
                    drains += 1
                }
                ProfileJSON.render(profile, engine: engine, at: date, explain: round % 2 == 0, into: draining)
                parts += draining.array
                #expect(parts == whole.array, "round \(round)")
                #expect(whole.count > ByteSink.drainThreshold && drains > 0, "round \(round): \(whole.count) bytes, \(drains) runs")
            }
        }

        /// One-time purchases, keyed by product id, each an array in purchase order, written
        /// member by member with `JSONStream`: the reference `appendNonSubscriptions` (a few
        /// copies per purchase) must match.
        static func writeNonSubscriptions(_ profile: Profile, into out: inout JSONStream) {
            var byProduct: [String: [Int]] = [:]  // product id → indices, in purchase order
            let purchases = profile.transactions.indices.filter { !profile.transactions[$0].isManualGrant && !ProfileJSON.isSubscription(profile.transactions[$0]) }
            // A stable sort by purchase date, as the tree's `sorted` of the transactions was.
            let ordered = purchases.enumerated().sorted {
                let a = profile.transactions[$0.element].purchasedAt, b = profile.transactions[$1.element].purchasedAt
                return a != b ? a < b : $0.offset < $1.offset
            }
            for (_, index) in ordered {
                guard let productID = profile.transactions[index].productID else { continue }
                byProduct[productID, default: []].append(index)
            }
            out.beginObject()
            for (productID, indices) in byProduct.sorted(by: { JSONKey.precedes($0.key, $1.key) }) {
                out.key(named: productID)
                out.beginArray()
                for index in indices {
                    let transaction = profile.transactions[index]
                    out.element()
                    out.beginObject()
                    out.key("is_one_time"); out.bool(transaction.type.is(.consumablePurchase))
                    out.key("is_refund"); out.bool(transaction.revokedAt != nil)
                    out.key("is_sandbox"); out.bool(transaction.environment == .sandbox)
                    out.key("purchase_id"); out.string(transaction.transactionID)
                    out.key("purchased_at"); out.date(transaction.purchasedAt)
                    out.key("store"); out.string(transaction.store.rawValue)
                    out.key("vendor_original_transaction_id"); out.string(transaction.originalTransactionID)
                    out.key("vendor_product_id"); out.string(productID)
                    out.key("vendor_transaction_id"); out.string(transaction.transactionID)
                    out.endObject()
                }
                out.endArray()
            }
            out.endObject()
        }

        @Test func noPurchasesIsAnEmptyObject() {
            let sink = ByteSink()
            ProfileJSON.appendNonSubscriptions(UnitTests.Fixture.profile([]), depth: 1, to: sink)
            #expect(sink.array == Array("{}".utf8))
        }
    }
}
