import Foundation
import Testing
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// An active level's `expires_at` is when access really ends: transactions that
    /// start by the time the previous one ends carry it on (chained grants, renewals).
    struct StatusEngineContinuityTests {
        typealias F = Fixture

        static let current = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")

        @Test func backToBackGrantsReportTheEndOfTheChain() {
            let next = F.grant("g2", from: "2026-01-05T00:00:00Z", starts: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
            let level = F.level([Self.current, next], at: "2026-01-15T00:00:00Z")
            #expect(level.state == .active)
            #expect(level.transactionID == "g1")
            #expect(level.expiresAt == F.date("2026-03-01T00:00:00Z"))
        }

        @Test func overlappingPurchaseExtendsTheEnd() {
            let purchase = F.purchase("t1", from: "2026-01-10T00:00:00Z", to: "2026-02-20T00:00:00Z")
            let third = F.grant("g3", from: "2026-01-05T00:00:00Z", starts: "2026-02-20T00:00:00Z", to: "2026-04-01T00:00:00Z")
            #expect(F.level([Self.current, purchase, third], at: "2026-01-15T00:00:00Z").expiresAt == F.date("2026-04-01T00:00:00Z"))
        }

        @Test func aGapEndsTheChain() {
            let later = F.grant("g2", from: "2026-01-05T00:00:00Z", starts: "2026-02-01T00:00:00.001Z", to: "2026-03-01T00:00:00Z")
            #expect(F.level([Self.current, later], at: "2026-01-15T00:00:00Z").expiresAt == F.date("2026-02-01T00:00:00Z"))
        }

        @Test func followingLifetimeMakesTheLevelLifetime() {
            let lifetime = F.grant("g2", from: "2026-01-05T00:00:00Z", starts: "2026-02-01T00:00:00Z", to: nil)
            let level = F.level([Self.current, lifetime], at: "2026-01-15T00:00:00Z")
            #expect(level.expiresAt == nil)
            #expect(level.isLifetime)
        }

        @Test func revokedAndConsumableTransactionsDoNotCarryAccessOn() {
            let revoked = F.grant("g2", from: "2026-01-05T00:00:00Z", starts: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z",
                                  revoked: "2026-01-06T00:00:00Z")
            let coins = F.purchase("c", product: F.coins, type: .consumablePurchase, from: "2026-01-10T00:00:00Z", to: "2026-06-01T00:00:00Z")
            #expect(F.level([Self.current, revoked, coins], at: "2026-01-15T00:00:00Z").expiresAt == F.date("2026-02-01T00:00:00Z"))
        }

        @Test func otherEntitlementsDoNotCarryAccessOn() {
            let sports = F.grant("g2", entitlement: "sports", from: "2026-01-05T00:00:00Z", starts: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
            #expect(F.level([Self.current, sports], at: "2026-01-15T00:00:00Z").expiresAt == F.date("2026-02-01T00:00:00Z"))
        }

        @Test func expiredAndRevokedLevelsReportTheirOwnExpiry() {
            let next = F.grant("g2", from: "2026-01-05T00:00:00Z", starts: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
            let level = F.level([Self.current, next], at: "2026-03-05T00:00:00Z")
            #expect(level.state == .expired)
            #expect(level.transactionID == "g2")
            #expect(level.expiresAt == F.date("2026-03-01T00:00:00Z"))
        }

        /// Transactions the `--environment` filter excludes must not stretch `expires_at`
        /// (nor turn it into lifetime).
        @Test func excludedEnvironmentDoesNotCarryAccessOn() {
            let production = F.purchase("p1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let sandbox = F.purchase("s1", from: "2026-01-10T00:00:00Z", to: "2026-06-01T00:00:00Z", environment: .sandbox)
            let sandboxLifetime = F.purchase("s2", product: F.lifetime, type: .nonConsumablePurchase, from: "2026-01-10T00:00:00Z", to: nil,
                                             environment: .sandbox)
            let engine = StatusEngine(configuration: F.configuration, environment: .production)
            #expect(F.level([production, sandbox], at: "2026-01-15T00:00:00Z", engine: engine).expiresAt == F.date("2026-02-01T00:00:00Z"))
            let level = F.level([production, sandboxLifetime], at: "2026-01-15T00:00:00Z", engine: engine)
            #expect(!level.isLifetime)
            #expect(level.expiresAt == F.date("2026-02-01T00:00:00Z"))
            let any = F.level([production, sandbox], at: "2026-01-15T00:00:00Z")
            #expect(any.expiresAt == F.date("2026-06-01T00:00:00Z"))
        }
    }
}
