import Foundation
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// The inputs of the differential tests of `check`'s and `status --json`'s fast paths
/// (`FastCheckTests`, `FastCheckStoreTests`, `FastCheckLineTests`, `FlatStatusTests`):
/// a configuration, generated profile files with odd spellings and edits no writer makes,
/// and a store of them on disk.
package enum CheckFixture {
    typealias Fixture = UnitTests.Fixture

    /// premium also through a product spelled with `K`, which the Kelvin sign (U+212A) equals as a `String`.
    package static let configuration = ProductConfiguration(entitlements: [
        .init(id: "premium", products: [Fixture.monthly, Fixture.annual, Fixture.lifetime, Fixture.coins, "com.example.K"]),
        .init(id: "sports", products: [Fixture.sportsMonthly, Fixture.annual]),
    ])
    package static let entitlements = ["premium", "sports", "Premium", "science"]
    package static let user = "alice@example.com"

    /// A generated profile (unknown fields, vendor data, escapes, restored revocations),
    /// with every type, family sharing, offer codes, sandbox, odd spellings and records after `date`.
    /// Every other profile is plain, so that most of them can take the fast path.
    package static func profile(_ random: inout SplitMix64, after date: Date, plain: Bool) -> Profile {
        func draw(_ count: Int) -> Int { ProfileGenerator.draw(&random, count) }
        var profile = plain ? ProfileGenerator.profile(&random) : ProfileGenerator.richProfile(&random)
        let odd = plain ? 4 : 1  // odd spellings are rarer in plain profiles
        profile.customerUserID = user
        if draw(3) == 0 { profile = ProfileGenerator.addingRecords(after: date, to: profile, &random) }
        let types: [TransactionType] = TransactionType.known.filter { $0 != .manualGrant } + [TransactionType(rawValue: "Subscription_Started")]
        for index in profile.transactions.indices {
            var transaction = profile.transactions[index]
            if transaction.isManualGrant {
                if draw(5 * odd) == 0 { transaction.entitlement = ["Premium", "sports", "premium\u{301}", "science"][draw(4)] }
            } else {
                if draw(4) == 0 { transaction.type = types[draw(types.count)] }
                if draw(6 * odd) == 0 { transaction.productID = ["com.example.\u{212A}", "com.example.K", Fixture.coins, "com.example.other"][draw(4)] }
                if draw(8) == 0 { transaction.ownershipType = .familySharing }
                if draw(8) == 0 { transaction.offerCode = ["", "SPRING"][draw(2)] }
                if draw(10) == 0 { transaction.isUpgraded = [true, false][draw(2)] }
                if draw(10 * odd) == 0 { transaction.store = [.playStore, .stripe, Store(rawValue: "my store"), Store(rawValue: "stor\u{E9}")][draw(4)] }
            }
            if draw(8 * odd) == 0 { transaction.environment = [.sandbox, Environment(rawValue: "Sandbox"), Environment(rawValue: "sandbox\u{301}")][draw(3)] }
            if draw(10) == 0 { transaction.revocationReason = ["refunded", "fraud \u{2014} \"chargeback\""][draw(2)] }
            if draw(40 * odd) == 0, index > 0 { transaction.transactionID = profile.transactions[index - 1].transactionID }
            profile.transactions[index] = transaction
        }
        if draw(6 * odd) == 0, let key = profile.renewalInfo.keys.first {
            profile.renewalInfo["\(key)\u{301}"] = profile.renewalInfo[key]
        }
        return profile
    }

    /// Edits a writer cannot make: a manual grant without a store, a null original id, a misplaced profile.
    package static func reshape(_ document: JSONValue, _ random: inout SplitMix64) -> JSONValue {
        guard case .object(var object) = document, case .array(var items)? = object["transactions"] else { return document }
        for index in items.indices {
            guard case .object(var item) = items[index] else { continue }
            if item["type"] == .string("manual_grant"), ProfileGenerator.draw(&random, 2) == 0 { item["store"] = nil }
            if ProfileGenerator.draw(&random, 10) == 0 { item["original_transaction_id"] = .null }
            if ProfileGenerator.draw(&random, 100) == 0 { item["purchased_at"] = .string("2025-02-30T00:00:00Z") }
            items[index] = .object(item)
        }
        object["transactions"] = .array(items)
        if ProfileGenerator.draw(&random, 30) == 0 { object["customer_user_id"] = .string("bob") }
        return .object(object)
    }

    /// A store of 80 generated profiles (half of them plain enough for the fast path), a
    /// damaged file and a misplaced profile; the users to ask about, with two that have no
    /// profile (one of them an id the store refuses).
    package static func store(in directory: TemporaryDirectory) throws -> (EntitlementStore, [String]) {
        let root = directory.store(config: String(decoding: JSONWriter().bytes(configuration.json), as: UTF8.self))
        let store = EntitlementStore(root: root)
        var random = SplitMix64(seed: 14_0016)
        var users: [String] = []
        for index in 0..<80 {
            let user = ["u\(index)", "auth0|\(index)", "U\(index)@example.com"][index % 3]
            let date = ProfileGenerator.instant(&random)
            var profile = Self.profile(&random, after: date, plain: index % 2 == 0)
            profile.customerUserID = user
            let bytes = JSONWriter().bytes(reshape(profile.json, &random))
            try Data(bytes).write(to: URL(fileURLWithPath: store.profilePath(for: user)))
            users.append(user)
        }
        try Data("{".utf8).write(to: URL(fileURLWithPath: store.profilePath(for: "broken")))
        try Data(JSONWriter().bytes(Fixture.profile([]).json)).write(to: URL(fileURLWithPath: store.profilePath(for: "misplaced")))
        users += ["broken", "misplaced", "nobody", "bad\u{7}id"]
        return (store, users)
    }
}
