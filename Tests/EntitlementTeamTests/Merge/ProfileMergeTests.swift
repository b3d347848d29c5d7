import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementTeam
import EntitlementTestSupport

extension Merge {
    /// The profile merge rules, one example each (the general forms are property tests).
    @Suite(.tags(.unit))
    struct ProfileMergeTests {
        static let base = """
        {"customer_user_id": "u1", "profile_id": "p1", "created_at": "2026-01-01T00:00:00Z", "x_profile": {"keep": 1},
         "custom_attributes": {"country": "DE"},
         "transactions": [
           {"transaction_id": "t1", "store": "app_store", "type": "subscription_started", "product_id": "com.a",
            "purchased_at": "2026-01-01T00:00:00Z", "expires_at": "2026-02-01T00:00:00Z", "x_tx": "kept"}
         ],
         "renewal_info": {"t1": {"will_renew": true, "x_renewal": [1, 2]}}}
        """

        static func edited(_ edit: (inout JSONObject) -> Void) -> Profile {
            var object = Merge.profile(base).json.objectValue!
            edit(&object)
            return try! Profile(json: .object(object))
        }

        static func transactions(_ object: JSONObject) -> [JSONObject] { object["transactions"]!.arrayItems.map { $0.objectValue! } }

        static func appending(_ transaction: String) -> (inout JSONObject) -> Void {
            { object in
                object["transactions"] = .array(object["transactions"]!.arrayItems + [try! JSONParser.parse(Array(transaction.utf8))])
            }
        }

        static func revoking(_ at: String, by: String, reason: String) -> (inout JSONObject) -> Void {
            { object in
                var items = transactions(object)
                items[0]["revoked_at"] = .string(at)
                items[0]["revoked_by"] = .string(by)
                items[0]["revocation_reason"] = .string(reason)
                object["transactions"] = .array(items.map(JSONValue.object))
            }
        }

        @Test func transactionsAddedOnBothSidesAreAllKeptInDateOrder() throws {
            let ours = Self.edited(Self.appending(#"{"transaction_id": "g2", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-20T00:00:00Z"}"#))
            let theirs = Self.edited(Self.appending(#"{"transaction_id": "g1", "type": "manual_grant", "entitlement": "sports", "purchased_at": "2026-01-10T00:00:00Z"}"#))
            let merged = try Merge.mergedProfile(Merge.profile(Self.base), ours, theirs)
            #expect(merged.transactions.map(\.transactionID) == ["t1", "g1", "g2"])
        }

        @Test func aTransactionDeletedOnOneSideComesBack() throws {
            let ours = Self.edited { $0["transactions"] = .array([]) }
            let theirs = Self.edited { $0["x_profile"] = .string("changed") }
            let merged = try Merge.mergedProfile(Merge.profile(Self.base), ours, theirs)
            #expect(merged.transactions.map(\.transactionID) == ["t1"])
            #expect(merged.raw["x_profile"] == .string("changed"))
        }

        @Test func aRevocationOnOneSideStays() throws {
            let ours = Self.edited(Self.revoking("2026-01-15T00:00:00Z", by: "dana", reason: "refunded"))
            let theirs = Self.edited { _ in }
            let merged = try Merge.mergedProfile(Merge.profile(Self.base), ours, theirs)
            #expect(merged.transactions[0].revokedAt == ISODate.parse("2026-01-15T00:00:00Z"))
            #expect(merged.transactions[0].revokedBy == "dana")
        }

        @Test func theEarlierRevocationWinsWithItsReasonAndAuthor() throws {
            let ours = Self.edited(Self.revoking("2026-01-20T00:00:00Z", by: "dana", reason: "other"))
            let theirs = Self.edited(Self.revoking("2026-01-15T00:00:00Z", by: "lee", reason: "refunded"))
            for merged in [try Merge.mergedProfile(Merge.profile(Self.base), ours, theirs), try Merge.mergedProfile(Merge.profile(Self.base), theirs, ours)] {
                #expect(merged.transactions[0].revokedAt == ISODate.parse("2026-01-15T00:00:00Z"))
                #expect(merged.transactions[0].revokedBy == "lee")
                #expect(merged.transactions[0].revocationReason == "refunded")
            }
        }

        @Test func revocationsAtTheSameInstantAreDecidedByValueOrder() throws {
            let ours = Self.edited(Self.revoking("2026-01-15T00:00:00Z", by: "dana", reason: "other"))
            let theirs = Self.edited(Self.revoking("2026-01-15T00:00:00Z", by: "lee", reason: "other"))
            #expect(try Merge.mergedProfile(nil, ours, theirs).transactions[0].revokedBy == "lee")
            #expect(try Merge.mergedProfile(nil, theirs, ours).transactions[0].revokedBy == "lee")
        }

        @Test func twoGrantsWithOneIdempotencyKeyKeepTheFirstAndRevokeTheOther() throws {
            let ours = Self.edited(Self.appending(#"{"transaction_id": "g-ours", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-10T09:00:00Z", "granted_at": "2026-01-10T09:00:00Z", "idempotency_key": "INC-42"}"#))
            let theirs = Self.edited(Self.appending(#"{"transaction_id": "g-theirs", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-10T08:00:00Z", "starts_at": "2026-01-11T00:00:00Z", "granted_at": "2026-01-10T08:00:00Z", "idempotency_key": "INC-42"}"#))
            // The merge is made at 09:30 by Sam: the duplicate is void from then on.
            let stamp = MergeStamp(at: ISODate.parse("2026-01-10T09:30:00Z")!, actor: "Sam <sam@example.com>")
            let merged = try Profile(json: JSONParser.parse(Merge.merged(Merge.profile(Self.base), ours, theirs, stamp: stamp)))
            let kept = try #require(Merge.transaction(merged, "g-theirs", store: "manual"))
            let duplicate = try #require(Merge.transaction(merged, "g-ours", store: "manual"))
            #expect(kept.revokedAt == nil)
            #expect(duplicate.revokedAt == stamp.at)
            #expect(duplicate.revocationReason == "duplicate_idempotency_key")
            #expect(duplicate.revokedBy == "Sam <sam@example.com>")
            #expect(duplicate.duplicateOf == "g-theirs")
            #expect(duplicate.raw["superseded_by"] == .string("g-theirs"))
            let engine = StatusEngine(configuration: ProductConfiguration(entitlements: [.init(id: "premium")]))
            let access = engine.evaluate("premium", for: merged, at: ISODate.parse("2026-01-10T10:00:00Z")!)
            #expect(!access.accessLevel.isActive)  // g-theirs starts later; the duplicate gives nothing
        }

        @Test func unknownFieldsSurviveAtEveryLevel() throws {
            let ours = Self.edited { object in
                var items = Self.transactions(object)
                items[0]["x_new"] = .string("ours")
                object["transactions"] = .array(items.map(JSONValue.object))
                object["x_ours"] = .bool(true)
            }
            let theirs = Self.edited { object in
                object["custom_attributes"] = .object(JSONObject([("country", .string("DE")), ("plan", .string("gold"))]))
                var renewals = object["renewal_info"]!.objectValue!
                var info = renewals["t1"]!.objectValue!
                info["x_renewal_new"] = .null
                renewals["t1"] = .object(info)
                object["renewal_info"] = .object(renewals)
            }
            let merged = try Merge.mergedProfile(Merge.profile(Self.base), ours, theirs)
            #expect(merged.raw["x_ours"] == .bool(true))
            #expect(merged.raw["x_profile"] == .object(JSONObject([("keep", .int(1))])))
            #expect(merged.transactions[0].raw["x_new"] == .string("ours"))
            #expect(merged.transactions[0].raw["x_tx"] == .string("kept"))
            #expect(merged.customAttributes["plan"] == .string("gold"))
            #expect(merged.renewalInfo["t1"]?.raw["x_renewal_new"] == .null)
            #expect(merged.renewalInfo["t1"]?.raw["x_renewal"] == .array([.int(1), .int(2)]))
        }

        @Test func scalarsChangedOnBothSidesTakeTheGreaterValue() throws {
            let ours = Self.edited { object in
                object["profile_id"] = .string("p-a")
                object["created_at"] = .string("2025-12-01T00:00:00Z")
                object["custom_attributes"] = .object(JSONObject([("country", .string("FR"))]))
                object["renewal_info"] = .object(JSONObject([("t1", .object(JSONObject([("will_renew", .bool(false))])))]))
            }
            let theirs = Self.edited { object in
                object["profile_id"] = .string("p-b")
                object["created_at"] = .string("2026-01-05T00:00:00Z")
                object["custom_attributes"] = .object(JSONObject([("country", .int(49))]))
            }
            let merged = try Merge.mergedProfile(Merge.profile(Self.base), ours, theirs)
            #expect(merged.profileID == "p-b")
            #expect(merged.createdAt == ISODate.parse("2025-12-01T00:00:00Z"))  // the earliest, not the greater
            #expect(merged.customAttributes["country"] == .string("FR"))  // strings rank above numbers
            #expect(merged.renewalInfo["t1"]?.willRenew == false)  // changed on one side only
        }

        @Test func theLaterExpiryWinsWhenBothSidesChangedIt() throws {
            func expiring(_ date: String) -> Profile {
                Self.edited { object in
                    var items = Self.transactions(object)
                    items[0]["expires_at"] = .string(date)
                    object["transactions"] = .array(items.map(JSONValue.object))
                }
            }
            let merged = try Merge.mergedProfile(Merge.profile(Self.base), expiring("2026-03-01T00:00:00Z"), expiring("2026-02-15T00:00:00+05:00"))
            #expect(merged.transactions[0].expiresAt == ISODate.parse("2026-03-01T00:00:00Z"))
            let never = Self.edited { object in
                var items = Self.transactions(object)
                items[0]["expires_at"] = .null
                items[0]["purchased_at"] = .string("2025-12-31T00:00:00Z")
                object["transactions"] = .array(items.map(JSONValue.object))
            }
            let other = try Merge.mergedProfile(Merge.profile(Self.base), never, expiring("2026-02-15T00:00:00Z"))
            #expect(other.transactions[0].expiresAt == ISODate.parse("2026-02-15T00:00:00Z"))  // null ranks below a date
            #expect(other.transactions[0].purchasedAt == ISODate.parse("2025-12-31T00:00:00Z"))  // the earlier purchase time
        }

        @Test func sidesOfDifferentUsersAreNotMerged() throws {
            let other = Merge.profile(#"{"customer_user_id": "u2", "transactions": []}"#)
            #expect(throws: MergeFailure.conflicts([MergeConflict(field: "customer_user_id", message: "the sides hold different users ('u1' and 'u2')")])) {
                try ProfileMerge.merge(base: nil, ours: Merge.profile(Self.base), theirs: other, stamp: Merge.stamp)
            }
        }
    }
}
