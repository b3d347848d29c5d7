import Foundation
import Testing
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `RevokePlanner.apply`: which transactions a revoke covers; nothing is deleted.
    struct RevokePlannerTests {
        typealias F = Fixture

        static let now = F.date("2026-01-15T12:00:00Z")

        static let profile = F.profile([
            F.grant("g-active", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z"),
            F.grant("g-scheduled", from: "2026-01-02T00:00:00Z", starts: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z"),
            F.grant("g-expired", from: "2025-12-01T00:00:00Z", to: "2026-01-01T00:00:00Z"),
            F.grant("g-revoked", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", revoked: "2026-01-05T00:00:00Z"),
            F.grant("g-sports", entitlement: "sports", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z"),
            F.grant("g-lifetime", from: "2026-01-03T00:00:00Z", to: nil),
            F.purchase("t-active", from: "2026-01-10T00:00:00Z", to: "2026-02-10T00:00:00Z"),
            F.purchase("t-expired", from: "2025-11-01T00:00:00Z", to: "2025-12-01T00:00:00Z"),
            F.purchase("c-coins", product: F.coins, type: .consumablePurchase, from: "2026-01-10T00:00:00Z", to: nil),
        ])

        func revoke(_ request: RevokeRequest, _ profile: Profile = profile) throws(RevokeError) -> (Profile, [String]) {
            try RevokePlanner.apply(request, to: profile, engine: F.engine, now: Self.now)
        }

        @Test func revokesActiveAndScheduledManualGrantsOnly() throws {
            let (changed, revoked) = try revoke(RevokeRequest(entitlement: "premium", reason: "Granted by mistake", actor: "dana"))
            #expect(revoked == ["g-active", "g-scheduled", "g-lifetime"])
            for id in revoked {
                let transaction = try #require(changed.transaction(id: id))
                #expect(transaction.revokedAt == Self.now)
                #expect(transaction.revokedBy == "dana")
                #expect(transaction.revocationReason == "Granted by mistake")
            }
            for id in ["g-expired", "g-revoked", "g-sports", "t-active", "t-expired", "c-coins"] {
                #expect(changed.transaction(id: id) == Self.profile.transaction(id: id), "\(id) must be untouched")
            }
            #expect(changed.transactions.count == Self.profile.transactions.count)
        }

        @Test func storePurchaseKeepsAccessAfterAManualRevoke() throws {
            let (changed, _) = try revoke(RevokeRequest(entitlement: "premium", actor: "dana"))
            let level = F.engine.evaluate("premium", for: changed, at: Self.now).accessLevel
            #expect(level.state == .active)
            #expect(level.transactionID == "t-active")
        }

        @Test func defaultReasonIsRecorded() throws {
            let (changed, _) = try revoke(RevokeRequest(entitlement: "premium", actor: "dana"))
            #expect(changed.transaction(id: "g-active")?.revocationReason == RevokePlanner.defaultReason)
            #expect(RevokePlanner.defaultReason == "revoked by support")
        }

        @Test func includeStoreAlsoRevokesActiveStorePurchases() throws {
            let (changed, revoked) = try revoke(RevokeRequest(entitlement: "premium", includeStore: true, actor: "dana"))
            #expect(revoked == ["g-active", "g-scheduled", "g-lifetime", "t-active"])
            #expect(F.engine.evaluate("premium", for: changed, at: Self.now).accessLevel.state == .revoked)
        }

        @Test func otherEntitlementsAreUntouched() throws {
            let (changed, revoked) = try revoke(RevokeRequest(entitlement: "sports", actor: "dana"))
            #expect(revoked == ["g-sports"])
            #expect(F.engine.evaluate("premium", for: changed, at: Self.now).accessLevel.state == .active)
            #expect(F.engine.evaluate("sports", for: changed, at: Self.now).accessLevel.state == .revoked)
        }

        @Test func nothingToRevokeChangesNothing() throws {
            let quiet = F.profile([F.grant("g-expired", from: "2025-12-01T00:00:00Z", to: "2026-01-01T00:00:00Z")])
            let (changed, revoked) = try revoke(RevokeRequest(entitlement: "premium", actor: "dana"), quiet)
            #expect(revoked.isEmpty)
            #expect(changed == quiet)
            #expect(try revoke(RevokeRequest(entitlement: "premium", actor: "dana"), F.profile([])).1.isEmpty)
        }

        @Test func revokingTwiceRevokesNothingTheSecondTime() throws {
            let (once, _) = try revoke(RevokeRequest(entitlement: "premium", actor: "dana"))
            let (twice, revoked) = try revoke(RevokeRequest(entitlement: "premium", actor: "sam"), once)
            #expect(revoked.isEmpty)
            #expect(twice == once)
        }

        // MARK: --transaction

        @Test func oneManualGrantByID() throws {
            let (changed, revoked) = try revoke(RevokeRequest(entitlement: "premium", transactionID: "g-scheduled", actor: "dana"))
            #expect(revoked == ["g-scheduled"])
            #expect(changed.transaction(id: "g-active")?.revokedAt == nil)
        }

        @Test func storePurchaseByIDNeedsIncludeStore() throws {
            let error = #expect(throws: RevokeError.self) {
                try revoke(RevokeRequest(entitlement: "premium", transactionID: "t-active", actor: "dana"))
            }
            #expect(error.map(EntitlementError.revoke)?.exitCode == .usage)
            #expect(error.map(EntitlementError.revoke)?.description.contains("add --include-store") == true)
            #expect(error == .storePurchaseNeedsIncludeStore(id: "t-active", store: "app_store"))
            let (_, revoked) = try revoke(RevokeRequest(entitlement: "premium", transactionID: "t-active", includeStore: true, actor: "dana"))
            #expect(revoked == ["t-active"])
        }

        @Test func unknownTransactionIsNotFound() {
            let error = #expect(throws: RevokeError.self) {
                try revoke(RevokeRequest(entitlement: "premium", transactionID: "nope", actor: "dana"))
            }
            #expect(error == .transactionNotFound(id: "nope", user: "alice@example.com"))
            #expect(error.map(EntitlementError.revoke)?.description == "no transaction 'nope' in the profile of 'alice@example.com'")
            #expect(error.map(EntitlementError.revoke)?.exitCode == .notFound)
        }

        @Test func transactionOfAnotherEntitlementIsAUsageError() {
            let error = #expect(throws: RevokeError.self) {
                try revoke(RevokeRequest(entitlement: "premium", transactionID: "g-sports", actor: "dana"))
            }
            #expect(error.map(EntitlementError.revoke)?.exitCode == .usage)
            #expect(error.map(EntitlementError.revoke)?.description.contains("does not give 'premium'") == true)
        }

        @Test func alreadyRevokedTransactionRevokesNothing() throws {
            let (changed, revoked) = try revoke(RevokeRequest(entitlement: "premium", transactionID: "g-revoked", actor: "dana"))
            #expect(revoked.isEmpty)
            #expect(changed == Self.profile)
        }
    }
}
