import Foundation
import Testing
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// The pure unit tests: no I/O, no wall clock. Every suite nests here, so
/// `swift test --filter Unit` runs exactly them and their names never clash
/// with the CLI and end-to-end suites.
@Suite(.tags(.unit))
package enum UnitTests {}

extension UnitTests {
    /// Fixed dates, products and transactions shared by the unit suites.
    package enum Fixture {
        package static let monthly = "com.example.premium.monthly"
        package static let annual = "com.example.premium.annual"
        package static let lifetime = "com.example.lifetime"
        package static let sportsMonthly = "com.example.sports.monthly"
        package static let coins = "com.example.coins"

        /// premium ← monthly, annual, lifetime, coins (a consumable); sports ← sports monthly, annual.
        package static let configuration = ProductConfiguration(entitlements: [
            .init(id: "premium", products: [monthly, annual, lifetime, coins]),
            .init(id: "sports", products: [sportsMonthly, annual]),
        ])

        package static let engine = StatusEngine(configuration: configuration)

        /// A fixed instant; every test time is spelled out, never read from a clock.
        package static func date(_ text: String) -> Date {
            guard let date = ISODate.parse(text) else { fatalError("bad fixture date \(text)") }
            return date
        }

        /// A store purchase. `to: nil` never expires.
        package static func purchase(
            _ id: String, product: String = monthly, type: TransactionType = .subscriptionStarted,
            from: String, starts: String? = nil, to: String?, original: String? = nil,
            revoked: String? = nil, environment: Environment = .production
        ) -> Transaction {
            var transaction = Transaction(
                transactionID: id, originalTransactionID: original, productID: product, store: .appStore, type: type,
                purchasedAt: date(from), startsAt: starts.map(date), expiresAt: to.map(date), environment: environment)
            transaction.revokedAt = revoked.map(date)
            return transaction
        }

        /// Monthly renewals c1 (Jan) to c4 (Apr) of one subscription.
        package static let monthlyRenewals = [
            purchase("c1", from: "2025-01-01T00:00:00Z", to: "2025-02-01T00:00:00Z", original: "c1"),
            purchase("c2", type: .subscriptionRenewed, from: "2025-02-01T00:00:00Z", to: "2025-03-01T00:00:00Z", original: "c1"),
            purchase("c3", type: .subscriptionRenewed, from: "2025-03-01T00:00:00Z", to: "2025-04-01T00:00:00Z", original: "c1"),
            purchase("c4", type: .subscriptionRenewed, from: "2025-04-01T00:00:00Z", to: "2025-05-01T00:00:00Z", original: "c1"),
        ]

        /// A manual grant of `entitlement`. `to: nil` is lifetime.
        package static func grant(
            _ id: String, entitlement: String = "premium", from: String, starts: String? = nil, to: String?,
            revoked: String? = nil, key: String? = nil
        ) -> Transaction {
            var transaction = Transaction(
                transactionID: id, productID: nil, store: .manual, type: .manualGrant,
                purchasedAt: date(from), startsAt: starts.map(date), expiresAt: to.map(date))
            transaction.entitlement = entitlement
            transaction.grantedAt = date(from)
            transaction.grantedBy = "dana"
            transaction.revokedAt = revoked.map(date)
            transaction.idempotencyKey = key
            return transaction
        }

        package static func profile(_ transactions: [Transaction], renewals: [String: RenewalInfo] = [:], user: String = "alice@example.com") -> Profile {
            var profile = Profile(profileID: "p-1", customerUserID: user, createdAt: date("2025-01-01T00:00:00Z"))
            profile.transactions = transactions
            profile.renewalInfo = renewals
            return profile
        }

        /// The access level of `entitlement` at `at`.
        package static func level(
            _ transactions: [Transaction], renewals: [String: RenewalInfo] = [:], entitlement: String = "premium",
            at: String, engine: StatusEngine = engine
        ) -> AccessLevel {
            engine.evaluate(entitlement, for: profile(transactions, renewals: renewals), at: date(at)).accessLevel
        }

        /// Parses a JSON text that the test knows is valid.
        package static func json(_ text: String) -> JSONValue {
            do { return try JSONParser.parse(text) } catch { fatalError("bad fixture JSON: \(error.description)") }
        }
    }
}
