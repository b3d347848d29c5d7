import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementCLI
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
import EntitlementTestSupport

/// `status --json` over flat transactions (`FlatProfile`, `FlatStatusEngine`, the flat
/// renderer) against the full path, as a property over seeded generated profile files:
/// whenever the flat path answers, its bytes are the full path's, and when it does not, it
/// has written nothing.
@Suite(.tags(.unit))
struct FlatStatusTests {
    typealias Check = CheckFixture
    static let user = Check.user

    /// What `status --json` shows beyond `check`: prices in several spellings and currencies
    /// (`uſd` is USD once upper-cased), `last_event`, custom attributes; `odd` adds the check
    /// tests' edits (no store, null original ids, impossible dates, a misplaced profile).
    static func reshape(_ document: JSONValue, odd: Bool = true, _ random: inout SplitMix64) -> JSONValue {
        func draw(_ count: Int) -> Int { ProfileGenerator.draw(&random, count) }
        let edited = odd ? Check.reshape(document, &random) : document
        guard case .object(var object) = edited, case .array(var items)? = object["transactions"] else { return edited }
        for index in items.indices {
            guard case .object(var item) = items[index] else { continue }
            if draw(3) > 0 {
                item["price"] = [.double(4.99), .double(0.99), .int(12), .number("1e2"), .number("19.990"), .double(-3.5)][draw(6)]
                item["currency"] = [.string("USD"), .string("usd"), .string("Usd"), .string("EUR"), .string("u\u{17F}d"), .null][draw(6)]
            }
            items[index] = .object(item)
        }
        object["transactions"] = .array(items)
        if draw(3) == 0 { object["last_event"] = .object(JSONObject([("at", .string("2025-0\(1 + draw(9))-01T00:00:00Z")), ("type", .string("renewed"))])) }
        if draw(4) == 0 { object["last_event"] = .string("not an object") }
        if draw(2) == 0 { object["custom_attributes"] = .object(JSONObject([("tier", .string("gold")), ("sessions", .int(draw(500)))])) }
        return .object(object)
    }

    /// Plain generated profiles (every type of record, records made after the instant, prices):
    /// the flat path answers every one of them, at the instant and at random ones.
    @Test func everyPlainProfileTakesTheFlatPath() {
        var random = SplitMix64(seed: 35_0003)
        for round in 0..<400 {
            let date = ProfileGenerator.instant(&random)
            var profile = ProfileGenerator.profile(&random)
            if round % 2 == 0 { profile = ProfileGenerator.addingRecords(after: date, to: profile, &random) }
            let bytes = [JSONWriter(), JSONWriter(style: .compact)][round % 2].bytes(Self.reshape(profile.json, odd: false, &random))
            for at in [date, ProfileGenerator.instant(&random)] {
                let environment = EnvironmentFilter.allCases[ProfileGenerator.draw(&random, 3)]
                let full = FlatStatusPaths.full(bytes, user: profile.customerUserID, configuration: Check.configuration, environment: environment, at: at)
                let flat = FlatStatusPaths.flat(bytes, user: profile.customerUserID, configuration: Check.configuration, environment: environment, at: at)
                #expect(flat != nil && flat == full, "round \(round) \(environment) \(ISODate.format(at)): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// Profiles with odd spellings, escapes, restored revocations, ids outside ASCII and damage:
    /// whenever the flat path answers, it is the full answer; when it does not, it wrote nothing.
    @Test func theFlatAnswerIsTheFullAnswer() {
        var random = SplitMix64(seed: 35_0004)
        var answered = 0, plain = 0, errors = 0
        for round in 0..<500 {
            let date = ProfileGenerator.instant(&random)
            let profile = Check.profile(&random, after: date, plain: round % 2 == 0)
            let writer = [JSONWriter(), JSONWriter(style: .compact), JSONWriter(sortKeys: false)][round % 3]
            let bytes = writer.bytes(Self.reshape(profile.json, &random))
            var variants = [bytes]
            for _ in 0..<2 { variants.append(ProfileGenerator.mutated(bytes, &random)) }
            for (variant, file) in variants.enumerated() {
                for _ in 0..<3 {
                    let environment = EnvironmentFilter.allCases[ProfileGenerator.draw(&random, 3)]
                    let at = ProfileGenerator.draw(&random, 3) == 0 ? ProfileGenerator.instant(&random) : date
                    let full = FlatStatusPaths.full(file, user: Self.user, configuration: Check.configuration, environment: environment, at: at)
                    let flat = FlatStatusPaths.attempt(file, user: Self.user, configuration: Check.configuration, environment: environment, at: at)
                    if full == nil { errors += 1 }
                    if variant == 0, round % 2 == 0 {
                        plain += 1
                        if flat.answered { answered += 1 }
                    }
                    guard flat.answered else {
                        #expect(flat.written.isEmpty, "round \(round): wrote before giving up")
                        continue
                    }
                    #expect(flat.written == full, "round \(round) \(environment) \(ISODate.format(at)): \(String(decoding: file, as: UTF8.self))")
                }
            }
        }
        // The property holds on many answers, not on a path that always gives up (the odd
        // spellings send a little over half of these profiles to the full path).
        #expect(answered * 3 > plain, "\(answered) of \(plain)")
        #expect(errors > 100)
    }

    /// Profiles past `check`'s limit of 64 transactions and 64 renewal infos (ids hashed,
    /// not compared pairwise): generated profiles joined under new ids, at their boundaries.
    /// A repeated id in one store is the full path's error; the same id in two stores is not.
    @Test func largeProfilesAreTheFullAnswer() {
        var random = SplitMix64(seed: 35_0005)
        var answered = 0
        for round in 0..<8 {
            var joined = UnitTests.Fixture.profile([], user: Self.user)
            for part in 0..<(80 + round * 8) {
                let piece = ProfileGenerator.profile(&random)
                for var transaction in piece.transactions {
                    transaction.transactionID = "p\(part)-\(transaction.transactionID)"
                    transaction.originalTransactionID = "p\(part)-\(transaction.originalTransactionID)"
                    joined.transactions.append(transaction)
                }
                for (original, info) in piece.renewalInfo { joined.renewalInfo["p\(part)-\(original)"] = info }
            }
            #expect(joined.transactions.count > 64 && joined.renewalInfo.count > 64)
            if round % 4 == 1 { joined.transactions[40].transactionID = joined.transactions[3].transactionID; joined.transactions[40].store = joined.transactions[3].store }
            if round % 4 == 2 { joined.transactions[40].transactionID = joined.transactions[3].transactionID; joined.transactions[40].store = .stripe }
            let bytes = JSONWriter().bytes(Self.reshape(joined.json, odd: false, &random))
            let dates = FlatStatusPaths.boundaries(of: bytes)
            for index in stride(from: 0, to: dates.count, by: max(1, dates.count / 20)) {
                let full = FlatStatusPaths.full(bytes, user: Self.user, configuration: Check.configuration, at: dates[index])
                guard let flat = FlatStatusPaths.flat(bytes, user: Self.user, configuration: Check.configuration, at: dates[index]) else {
                    continue
                }
                answered += 1
                #expect(flat == full, "round \(round) at \(ISODate.format(dates[index]))")
            }
            if round % 4 == 1 {
                #expect(FlatStatusPaths.full(bytes, user: Self.user, configuration: Check.configuration, at: dates[0]) == nil)
                #expect(FlatStatusPaths.flat(bytes, user: Self.user, configuration: Check.configuration, at: dates[0]) == nil)
            }
        }
        #expect(answered > 100)
    }

    /// Entitlement and product ids outside ASCII can equal other bytes as `String`s: the full path answers.
    @Test func aConfigurationOutsideASCIITakesTheFullPath() {
        let entitlement = ProductConfiguration(entitlements: [.init(id: "pr\u{E9}mium", products: [UnitTests.Fixture.monthly])])
        let product = ProductConfiguration(entitlements: [.init(id: "premium", products: ["com.example.\u{212A}"])])
        #expect(FlatStatusEngine(configuration: entitlement, environment: .any) == nil)
        #expect(FlatStatusEngine(configuration: product, environment: .any) == nil)
        #expect(FlatStatusEngine(configuration: Check.configuration, environment: .any) != nil)
    }

    /// The 10,000-transaction shape of the benchmark's `heavy-user` takes the flat path.
    @Test func aProfileOfTenThousandTransactionsTakesTheFlatPath() {
        var profile = UnitTests.Fixture.profile([], user: Self.user)
        let start = UnitTests.Fixture.date("2024-01-01T00:00:00Z")
        for index in 0..<10_000 {
            let at = start.addingTimeInterval(Double(index) * 300)
            let chain = index % 3 == 0
            var transaction = Transaction(transactionID: "t\(index)", originalTransactionID: chain ? "t\(index - index % 36)" : nil,
                                          productID: chain ? UnitTests.Fixture.monthly : UnitTests.Fixture.coins, store: .appStore,
                                          type: chain ? .subscriptionRenewed : .consumablePurchase, purchasedAt: at,
                                          expiresAt: chain ? at.addingTimeInterval(300) : nil, environment: index % 2 == 0 ? .sandbox : .production)
            transaction.price = 0.99
            transaction.currency = "USD"
            profile.transactions.append(transaction)
        }
        let bytes = JSONWriter().bytes(profile.json)
        let at = UnitTests.Fixture.date("2024-01-20T00:00:00Z")
        let flat = FlatStatusPaths.flat(bytes, user: Self.user, configuration: Check.configuration, at: at)
        #expect(flat != nil)
        #expect(flat == FlatStatusPaths.full(bytes, user: Self.user, configuration: Check.configuration, at: at))
    }
}
