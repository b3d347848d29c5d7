import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// The byte decoder on profiles with many transactions: ids checked for uniqueness
    /// through the hashed table, and more distinct strings per field than it remembers.
    struct ProfileDecoderManyTests {
        /// 17 to 300 transactions, over up to 20 products and interleaved subscriptions; ids
        /// repeat across stores, and sometimes within one (which the tree path refuses).
        static func profile(_ random: inout SplitMix64, repeatWithinStore: Bool) -> Profile {
            var profile = UnitTests.Fixture.profile([])
            let count = 17 + ProfileGenerator.draw(&random, 284)
            let productCount = 1 + ProfileGenerator.draw(&random, 20)
            var date = ProfileGenerator.instant(&random)
            for number in 0..<count {
                // Ids shared between stores: numbers 3k, 3k+1 and 3k+2 may share "shared-k", each in another store.
                let store: Store = [.appStore, .playStore, Store(rawValue: "stripe")][number % 3]
                let id = ProfileGenerator.draw(&random, 2) == 0 ? "shared-\(number / 3)" : "t\(number)"
                let original = ProfileGenerator.draw(&random, 2) == 0 ? id : "chain\(ProfileGenerator.draw(&random, 12))"
                let type: TransactionType = [.consumablePurchase, .subscriptionRenewed, .subscriptionStarted][ProfileGenerator.draw(&random, 3)]
                profile.transactions.append(Transaction(
                    transactionID: id, originalTransactionID: original, productID: "com.example.product\(ProfileGenerator.draw(&random, productCount))",
                    store: store, type: type, purchasedAt: date, expiresAt: type == .consumablePurchase ? nil : date.addingTimeInterval(86_400)))
                date = date.addingTimeInterval(3600)
            }
            if repeatWithinStore {
                let copied = profile.transactions[ProfileGenerator.draw(&random, count)]
                profile.transactions.insert(copied, at: ProfileGenerator.draw(&random, count + 1))
            }
            return profile
        }

        @Test func manyTransactionsDecodeAsTheTreeDoes() {
            var random = SplitMix64(seed: 14_0002)
            for round in 0..<200 {
                let repeated = round % 4 == 0
                let profile = Self.profile(&random, repeatWithinStore: repeated)
                let bytes = JSONWriter(style: round % 2 == 0 ? .pretty : .compact).bytes(profile.json)
                #expect(ProfileDecoderTests.disagreement(bytes) == nil, "round \(round)")
                let decoded = ProfileDecoder.decode(bytes)
                if repeated {
                    #expect(decoded == nil, "round \(round): a repeated id was accepted")
                } else {
                    #expect(decoded == profile, "round \(round)")
                    // Shared strings are still the right strings, field by field.
                    #expect(decoded?.transactions.map(\.originalTransactionID) == profile.transactions.map(\.originalTransactionID))
                    #expect(decoded?.transactions.map(\.productID) == profile.transactions.map(\.productID))
                }
            }
        }
    }
}
