import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementTestSupport

extension UnitTests {
    /// `GrantPlanner.apply`: a pure function of (profile, request, now, new ids).
    struct GrantPlannerTests {
        typealias F = Fixture

        static let now = F.date("2026-01-15T12:00:00Z")

        func request(_ term: GrantRequest.Term, entitlement: String = "premium", starts: String? = nil, key: String? = nil) -> GrantRequest {
            GrantRequest(userID: "alice@example.com", entitlement: entitlement, term: term, startsAt: starts.map(F.date),
                         reason: "Outage INC-42", actor: "dana", idempotencyKey: key)
        }

        func apply(_ request: GrantRequest, to profile: Profile?) throws(GrantError) -> GrantOutcome {
            try GrantPlanner.apply(request, to: profile, now: Self.now, newTransactionID: "manual-new", newProfileID: "profile-new")
        }

        static let month = GrantRequest.Term.duration(GrantDuration(months: 1))
        static let week = GrantRequest.Term.duration(GrantDuration(seconds: 7 * 86_400))

        @Test func firstGrantCreatesTheProfile() throws {
            let outcome = try apply(request(Self.month, key: "K-1"), to: nil)
            #expect(outcome.changed && outcome.createdProfile)
            #expect(outcome.extendsTransactionID == nil)
            #expect(outcome.profile.customerUserID == "alice@example.com")
            #expect(outcome.profile.profileID == "profile-new")
            #expect(outcome.profile.createdAt == Self.now)
            #expect(outcome.profile.transactions == [outcome.transaction])
            let grant = outcome.transaction
            #expect(grant.transactionID == "manual-new" && grant.originalTransactionID == "manual-new")
            #expect(grant.type == .manualGrant && grant.store == .manual && grant.productID == nil)
            #expect(grant.entitlement == "premium")
            #expect(grant.purchasedAt == Self.now && grant.grantedAt == Self.now && grant.startsAt == nil)
            #expect(grant.expiresAt == F.date("2026-02-15T12:00:00Z"))
            #expect(grant.grantedBy == "dana" && grant.reason == "Outage INC-42" && grant.idempotencyKey == "K-1")
            #expect(F.engine.evaluate("premium", for: outcome.profile, at: Self.now).accessLevel.state == .active)
        }

        @Test func existingProfileKeepsItsTransactions() throws {
            let purchase = F.purchase("t1", from: "2025-01-01T00:00:00Z", to: "2025-02-01T00:00:00Z")
            let existing = F.profile([purchase])
            let outcome = try apply(request(.lifetime), to: existing)
            #expect(!outcome.createdProfile && outcome.changed)
            #expect(outcome.profile.profileID == existing.profileID)
            #expect(outcome.profile.transactions.map(\.transactionID) == ["t1", "manual-new"])
            #expect(outcome.profile.transactions[0] == purchase)
            #expect(outcome.transaction.expiresAt == nil)
        }

        @Test func durationChainsAfterTheLatestOpenGrantOfTheSameEntitlement() throws {
            let active = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let scheduled = F.grant("g2", from: "2026-01-02T00:00:00Z", starts: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
            let outcome = try apply(request(Self.week), to: F.profile([scheduled, active]))
            #expect(outcome.extendsTransactionID == "g2")
            #expect(outcome.transaction.startsAt == F.date("2026-03-01T00:00:00Z"))
            #expect(outcome.transaction.expiresAt == F.date("2026-03-08T00:00:00Z"))
            let level = F.engine.evaluate("premium", for: outcome.profile, at: Self.now).accessLevel
            #expect(level.state == .active && level.expiresAt == F.date("2026-03-08T00:00:00Z"))
        }

        @Test func durationChainsAfterAScheduledGrantEvenAcrossAGap() throws {
            let march = F.grant("g-march", from: "2026-01-02T00:00:00Z", starts: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z")
            let outcome = try apply(request(Self.week), to: F.profile([march]))
            #expect(outcome.extendsTransactionID == "g-march")
            #expect(outcome.transaction.startsAt == F.date("2026-04-01T00:00:00Z"))
            #expect(F.engine.evaluate("premium", for: outcome.profile, at: Self.now).accessLevel.state == .scheduled)
        }

        @Test func earlierUntilNeverShortensAccess() throws {
            let active = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
            let outcome = try apply(request(.until(F.date("2026-02-01T00:00:00Z"))), to: F.profile([active]))
            #expect(outcome.changed)
            let level = F.engine.evaluate("premium", for: outcome.profile, at: Self.now).accessLevel
            #expect(level.transactionID == "g1" && level.expiresAt == F.date("2026-03-01T00:00:00Z"))
        }

        @Test func monthsAreCalendarMonthsFromTheChainEnd() throws {
            let active = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-01-31T09:00:00Z")
            let outcome = try apply(request(Self.month), to: F.profile([active]))
            #expect(outcome.transaction.expiresAt == F.date("2026-02-28T09:00:00Z"))
        }

        @Test(arguments: [
            F.grant("old", from: "2025-12-01T00:00:00Z", to: "2026-01-01T00:00:00Z"),  // expired
            F.grant("ended", from: "2026-01-01T00:00:00Z", to: "2026-01-15T12:00:00Z"),  // expires exactly now
            F.grant("gone", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", revoked: "2026-01-10T00:00:00Z"),
            F.grant("other", entitlement: "sports", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z"),
            F.purchase("store", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z"),
            F.grant("forever", from: "2026-01-01T00:00:00Z", to: nil),  // lifetime: nothing to chain after
        ])
        func durationStartsNowWithoutAnOpenTimedGrant(existing: Transaction) throws {
            let outcome = try apply(request(Self.week), to: F.profile([existing]))
            #expect(outcome.extendsTransactionID == nil)
            #expect(outcome.transaction.startsAt == nil)
            #expect(outcome.transaction.expiresAt == F.date("2026-01-22T12:00:00Z"))
        }

        @Test func explicitStartAndUntilDoNotChain() throws {
            let active = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            let started = try apply(request(Self.week, starts: "2026-01-20T00:00:00Z"), to: F.profile([active]))
            #expect(started.extendsTransactionID == nil)
            #expect(started.transaction.startsAt == F.date("2026-01-20T00:00:00Z"))
            #expect(started.transaction.expiresAt == F.date("2026-01-27T00:00:00Z"))
            let until = try apply(request(.until(F.date("2026-01-25T00:00:00Z"))), to: F.profile([active]))
            #expect(until.extendsTransactionID == nil && until.transaction.startsAt == nil)
            #expect(until.transaction.expiresAt == F.date("2026-01-25T00:00:00Z"))
        }

        @Test func futureStartIsScheduledAndNowIsNotRecordedAsAStart() throws {
            let later = try apply(request(.lifetime, starts: "2026-02-01T00:00:00Z"), to: nil)
            #expect(later.transaction.startsAt == F.date("2026-02-01T00:00:00Z"))
            #expect(F.engine.evaluate("premium", for: later.profile, at: Self.now).accessLevel.state == .scheduled)
            let immediate = try apply(request(.lifetime, starts: "2026-01-15T12:00:00Z"), to: nil)
            #expect(immediate.transaction.startsAt == nil)
        }

        @Test func startInThePastIsRefused() {
            let error = #expect(throws: GrantError.self) { try apply(request(.lifetime, starts: "2026-01-15T11:59:59Z"), to: nil) }
            #expect(error.map(EntitlementError.grant)?.exitCode == .usage)
            #expect(error.map(EntitlementError.grant)?.description.contains("in the past") == true)
        }

        @Test(arguments: ["2026-01-15T12:00:00Z", "2026-01-01T00:00:00Z"])
        func endAtOrBeforeTheStartIsRefused(until: String) {
            let error = #expect(throws: GrantError.self) { try apply(request(.until(F.date(until))), to: nil) }
            #expect(error.map(EntitlementError.grant)?.exitCode == .usage)
            #expect(error.map(EntitlementError.grant)?.description.contains("before it starts") == true)
        }

        @Test func untilBeforeAFutureStartIsRefused() {
            #expect(throws: GrantError.self) {
                try apply(request(.until(F.date("2026-01-20T00:00:00Z")), starts: "2026-02-01T00:00:00Z"), to: nil)
            }
        }

        // MARK: Idempotency

        @Test func sameKeyAndEntitlementChangesNothing() throws {
            let first = try apply(request(Self.month, key: "K-1"), to: nil)
            let retry = try GrantPlanner.apply(request(Self.week, key: "K-1"), to: first.profile, now: F.date("2026-01-16T00:00:00Z"),
                                               newTransactionID: "manual-other", newProfileID: "profile-other")
            #expect(!retry.changed && !retry.createdProfile)
            #expect(retry.transaction == first.transaction)
            #expect(retry.profile == first.profile)
        }

        @Test func sameKeyMatchesEvenARevokedGrant() throws {
            let revoked = F.grant("g1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", revoked: "2026-01-05T00:00:00Z", key: "K-1")
            let outcome = try apply(request(Self.month, key: "K-1"), to: F.profile([revoked]))
            #expect(!outcome.changed)
            #expect(outcome.transaction.transactionID == "g1")
            #expect(outcome.profile.transactions.count == 1)
        }

        @Test func sameKeyForAnotherEntitlementIsAUsageError() throws {
            let first = try apply(request(Self.month, key: "K-1"), to: nil)
            let error = #expect(throws: GrantError.self) { try apply(request(Self.month, entitlement: "sports", key: "K-1"), to: first.profile) }
            #expect(error.map(EntitlementError.grant)?.exitCode == .usage)
            #expect(error.map(EntitlementError.grant)?.description.contains("idempotency key 'K-1' was already used for 'premium', not 'sports'") == true)
            #expect(error == .idempotencyKeyReused(key: "K-1", usedFor: "premium", requested: "sports"))
        }

        @Test func keyUsedByAStorePurchaseIsAUsageError() {
            var purchase = F.purchase("t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            purchase.idempotencyKey = "K-1"
            #expect(throws: GrantError.self) { try apply(request(Self.month, key: "K-1"), to: F.profile([purchase])) }
        }

        @Test func differentKeysGrantTwice() throws {
            let first = try apply(request(Self.month, key: "K-1"), to: nil)
            let second = try GrantPlanner.apply(request(Self.month, key: "K-2"), to: first.profile, now: Self.now,
                                                newTransactionID: "manual-2", newProfileID: "unused")
            #expect(second.changed && second.extendsTransactionID == "manual-new")
            #expect(second.profile.transactions.count == 2)
        }

        // MARK: Far-future ends

        /// The store spells four-digit years only, so a grant may not end after 9999.
        @Test(arguments: [
            GrantRequest.Term.duration(GrantDuration(months: 10_000 * 12)), .duration(GrantDuration(months: 1_000_000 * 12)),
            .until(Date(timeIntervalSince1970: 253_402_300_800)),  // 10000-01-01T00:00:00Z
        ])
        func endsAfterYear9999AreRefused(term: GrantRequest.Term) {
            let error = #expect(throws: GrantError.self) { try apply(request(term), to: nil) }
            #expect(error.map(EntitlementError.grant)?.exitCode == .usage)
            #expect(error.map(EntitlementError.grant)?.description.contains(ISODate.format(ISODate.writableRange.upperBound)) == true)
        }

        @Test func latestSpellableEndIsAcceptedAndReadableAgain() throws {
            let outcome = try apply(request(.until(F.date("9999-12-31T23:59:59Z"))), to: nil)
            let text = JSONWriter().string(outcome.profile.json)
            #expect(text.contains("\"expires_at\": \"9999-12-31T23:59:59Z\""))
            #expect(try Profile(json: JSONParser.parse(text)) == outcome.profile)
        }
    }
}
