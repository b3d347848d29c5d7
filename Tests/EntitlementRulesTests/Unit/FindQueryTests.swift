import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `find`'s filters, and the byte prefilter that must never drop a match.
    struct FindQueryTests {
        typealias F = Fixture
        static let at = F.date("2026-01-15T12:00:00Z")

        @Test func stateStoreProductAndExpiryFiltersCombine() {
            let profile = F.profile([F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-01-20T00:00:00Z")])
            var query = FindQuery(entitlement: "premium", states: [.active])
            #expect(query.matches(profile, engine: F.engine, at: Self.at).map(\.state) == [.active])
            query.storeName = "play_store"
            #expect(query.matches(profile, engine: F.engine, at: Self.at).isEmpty)
            query.storeName = "app_store"
            query.product = F.annual
            #expect(query.matches(profile, engine: F.engine, at: Self.at).isEmpty)
            query.product = F.monthly
            query.expiringWithin = GrantDuration(seconds: 4 * 86_400)
            #expect(query.matches(profile, engine: F.engine, at: Self.at).isEmpty, "ends in 4.5 days")
            query.expiringWithin = GrantDuration(seconds: 5 * 86_400)
            #expect(query.matches(profile, engine: F.engine, at: Self.at).count == 1)
        }

        @Test func expiringWithinIncludesItsEndAndExcludesLifetime() {
            let ends = F.profile([F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-01-22T12:00:00Z")])
            let lifetime = F.profile([F.grant("g2", from: "2026-01-01T00:00:00Z", to: nil)])
            let query = FindQuery(expiringWithin: GrantDuration(seconds: 7 * 86_400))
            #expect(query.matches(ends, engine: F.engine, at: Self.at).count == 1, "exactly 7 days is within")
            #expect(query.matches(lifetime, engine: F.engine, at: Self.at).isEmpty)
        }

        @Test func withoutEntitlementEveryEntitlementOfTheProfileIsConsidered() {
            let profile = F.profile([F.purchase("t1", product: F.annual, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")])
            let ids = FindQuery(states: [.active]).matches(profile, engine: F.engine, at: Self.at).map(\.id)
            #expect(ids == ["premium", "sports"])
            #expect(FindQuery(states: [.never]).matches(profile, engine: F.engine, at: Self.at).isEmpty)
        }

        @Test(arguments: [("NL", true), ("nl", false), ("DE", false)])
        func attributeMatchesStringsExactly(value: String, expected: Bool) {
            var profile = F.profile([])
            profile.customAttributes["country"] = .string("NL")
            let query = FindQuery(states: [.never], attribute: .init(key: "country", value: value))
            #expect(!query.matches(profile, engine: F.engine, at: Self.at).isEmpty == expected)
        }

        @Test func attributeNumbersCompareByValue() {
            #expect(FindQuery.attribute(.number("42"), equals: "42.0"))
            #expect(FindQuery.attribute(.number("42"), equals: "42"))
            #expect(!FindQuery.attribute(.number("42"), equals: "forty-two"))
            #expect(!FindQuery.attribute(nil, equals: ""))
        }

        /// The prefilter is a pure speed-up: over generated profiles and queries it never
        /// rules out a profile that matches.
        @Test func prefilterNeverDropsAMatch() {
            var random = SplitMix64(seed: 12)
            let states: [AccessState] = AccessState.allCases
            var checked = 0
            for index in 0..<400 {
                let profile = Self.randomProfile(&random, index: index)
                let bytes = JSONWriter().bytes(profile.json)
                let respelled = Self.withOffsetDates(bytes)
                for _ in 0..<6 {
                    var query = FindQuery()
                    if random.next() % 2 == 0 { query.entitlement = ["premium", "sports"][Int(random.next() % 2)] }
                    if random.next() % 4 != 0 {
                        query.states = Set((0..<(1 + Int(random.next() % 2))).map { _ in states[Int(random.next() % UInt64(states.count))] })
                    }
                    if random.next() % 4 == 0 { query.storeName = ["app_store", "manual", "stripe"][Int(random.next() % 3)] }
                    if random.next() % 4 == 0 { query.product = [F.monthly, F.annual, F.sportsMonthly][Int(random.next() % 3)] }
                    // Evaluation times on and around the generated dates (whole days), with fractions.
                    let at = random.next() % 3 == 0 ? Self.at : Self.randomTime(&random)
                    let prefilter = ProfilePrefilter(query, configuration: F.configuration, at: at)
                    if !query.matches(profile, engine: F.engine, at: at).isEmpty {
                        #expect(prefilter.mayMatch(bytes), "query \(query) at \(ISODate.format(at)) dropped profile \(index)")
                        // The same instants written with a fraction and a negative offset.
                        #expect(prefilter.mayMatch(respelled), "query \(query) at \(ISODate.format(at)) dropped respelled profile \(index)")
                        checked += 1
                    }
                }
            }
            #expect(checked > 300)
        }

        @Test func prefilterRulesOutProfilesWithoutTheKey() {
            let plain = JSONWriter().bytes(F.profile([F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")]).json)
            let grace = ProfilePrefilter(FindQuery(states: [.gracePeriod]), configuration: F.configuration)
            #expect(!grace.mayMatch(plain))
            #expect(grace.mayMatch(plain + Array(#"{"x":"\u0041"}"#.utf8)), "an escape turns the prefilter off")
            #expect(ProfilePrefilter(FindQuery(states: [.active]), configuration: F.configuration).passesEverything)
            let nulls = Array(#"{"renewal_info": {"t1": {"grace_period_expires_at" : null, "is_in_billing_retry": false}}}"#.utf8)
            #expect(!grace.mayMatch(nulls), "an explicit null is no grace period")
            #expect(!ProfilePrefilter(FindQuery(states: [.billingRetry]), configuration: F.configuration).mayMatch(nulls))
            #expect(grace.mayMatch(Array(#"{"grace_period_expires_at":"2026-01-30T00:00:00Z"}"#.utf8)))
        }

        /// `bytes` with every UTC date (`"YYYY-MM-DDTHH:MM:SSZ"`) written as the same instant
        /// five hours behind UTC, with a fraction: `"…T07:00:00.000-05:00"`.
        static func withOffsetDates(_ bytes: [UInt8]) -> [UInt8] {
            let text = String(decoding: bytes, as: UTF8.self)
            let pattern = /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"/
            let respelled = text.replacing(pattern) { match in
                guard let date = ISODate.parse(String(match.1)) else { return String(match.0) }
                let local = ISODate.format(date.addingTimeInterval(-5 * 3_600))
                return "\"\(local.dropLast()).000-05:00\""
            }
            return Array(respelled.utf8)
        }

        @Test func offsetRespellingKeepsTheInstants() throws {
            let original = Array(#"{"a": "2026-01-15T03:00:00Z"}"#.utf8)
            #expect(String(decoding: Self.withOffsetDates(original), as: UTF8.self) == #"{"a": "2026-01-14T22:00:00.000-05:00"}"#)
            #expect(ISODate.parse("2026-01-14T22:00:00.000-05:00") == ISODate.parse("2026-01-15T03:00:00Z"))
        }

        /// A day of the generated profiles' span, at midnight moved by up to two seconds either way.
        static func randomTime(_ random: inout SplitMix64) -> Date {
            let offsets: [Double] = [-2, -1.5, -1, -0.9999996, -0.5, 0, 0.0000004, 0.25, 0.9999996, 1, 1.5, 2]
            let day = F.date("2025-06-01T00:00:00Z").addingTimeInterval(Double(random.next() % 400) * 86_400)
            return day.addingTimeInterval(offsets[Int(random.next() % UInt64(offsets.count))])
        }

        /// The grace date check at the second boundary: a grace period that ends a moment
        /// after the evaluation time passes, one that ended a second or more before is ruled out.
        @Test func prefilterComparesGraceDatesWithTheEvaluationTime() {
            let at = F.date("2026-01-15T12:00:00.5Z")
            let prefilter = ProfilePrefilter(FindQuery(states: [.gracePeriod]), configuration: F.configuration, at: at)
            func file(_ date: String) -> [UInt8] { Array(#"{"renewal_info": {"t1": {"grace_period_expires_at": "\#(date)"}}}"#.utf8) }
            #expect(prefilter.mayMatch(file("2026-01-15T12:00:00.6Z")))
            #expect(prefilter.mayMatch(file("2026-01-15T12:00:00Z")), "within the one-second margin")
            #expect(prefilter.mayMatch(file("2026-01-15T11:59:59.9Z")), "within the one-second margin")
            #expect(!prefilter.mayMatch(file("2026-01-15T11:59:58.9Z")))
            #expect(!prefilter.mayMatch(file("2025-12-31T23:59:59Z")))
            #expect(prefilter.mayMatch(file("2027-01-01T00:00:00Z")))
            #expect(prefilter.mayMatch(file("2026-01-15T09:00:00-05:00")), "an offset is not compared")
            #expect(prefilter.mayMatch(file("2026-01-15T10:00:00.5-05:00")), "a fraction then an offset is not compared")
            #expect(prefilter.mayMatch(file("2026-01-15T10:00:00.5+05:00")), "a fraction then an offset is not compared")
            #expect(!prefilter.mayMatch(file("2026-01-15T11:00:00.123Z")), "a fraction then Z is compared")
            #expect(prefilter.mayMatch(file("2025-01-15")), "another form is not compared")
            // Two subscriptions: one running grace period is enough.
            let both = Array(#"{"a": {"grace_period_expires_at": "2025-01-01T00:00:00Z"}, "b": {"grace_period_expires_at": "2026-02-01T00:00:00Z"}}"#.utf8)
            #expect(prefilter.mayMatch(both))
            #expect(ProfilePrefilter(FindQuery(states: [.gracePeriod]), configuration: F.configuration).mayMatch(file("2020-01-01T00:00:00Z")),
                    "without an evaluation time no date is compared")
        }

        static func randomProfile(_ random: inout SplitMix64, index: Int) -> Profile {
            let base = F.date("2025-06-01T00:00:00Z")
            func day(_ offset: UInt64) -> Date { base.addingTimeInterval(Double(offset) * 86_400) }
            var transactions: [Transaction] = []
            var renewals: [String: RenewalInfo] = [:]
            for number in 0..<Int(random.next() % 4) {
                let start = day(random.next() % 300)
                let end = random.next() % 6 == 0 ? nil : start.addingTimeInterval(Double(1 + random.next() % 60) * 86_400)
                var transaction: Transaction
                if random.next() % 3 == 0 {
                    transaction = F.grant("g\(number)", entitlement: ["premium", "sports"][Int(random.next() % 2)],
                                          from: ISODate.format(start), to: end.map(ISODate.format))
                } else {
                    let product = [F.monthly, F.annual, F.sportsMonthly, F.coins][Int(random.next() % 4)]
                    transaction = F.purchase("t\(number)", product: product, type: product == F.coins ? .consumablePurchase : .subscriptionStarted,
                                             from: ISODate.format(start), to: end.map(ISODate.format))
                    if random.next() % 3 == 0, let end {
                        renewals[transaction.originalTransactionID] = RenewalInfo(
                            willRenew: true, gracePeriodExpiresAt: random.next() % 2 == 0 ? end.addingTimeInterval(16 * 86_400) : nil,
                            isInBillingRetry: random.next() % 2 == 0)
                    }
                }
                if random.next() % 6 == 0 { transaction.revokedAt = start.addingTimeInterval(86_400) }
                transactions.append(transaction)
            }
            return F.profile(transactions, renewals: renewals, user: "user-\(index)")
        }
    }
}
