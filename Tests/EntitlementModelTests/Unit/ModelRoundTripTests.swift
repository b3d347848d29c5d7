import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// A profile read and written back keeps unknown fields, unknown enum values,
    /// and the file's own spelling of dates and numbers it did not change.
    struct ModelRoundTripTests {
        typealias F = Fixture

        static let file = #"""
            {
              "customer_user_id": "alice",
              "x_segment": {"cohort": 7},
              "created_at": "2025-03-01",
              "transactions": [
                {
                  "transaction_id": "t1", "product_id": "com.example.premium.monthly", "store": "amazon",
                  "type": "winback_offer", "purchased_at": "2020-01-15T15:10:36.517975+0000",
                  "expires_at": "2026-02-01T11:00:00+01:00", "environment": "xcode", "ownership_type": "family_member",
                  "revocation_reason": "fraud_suspected", "price": 9.90, "currency": "EUR",
                  "app_account_token": "c0ffee", "vendor": {"raw": {"signedDate": 1700000000000}}
                },
                {
                  "transaction_id": "g1", "type": "manual_grant", "entitlement": "sports",
                  "purchased_at": "2026-01-10T08:00:00.000Z", "expires_at": null
                }
              ],
              "renewal_info": {"t1": {"will_renew": false, "auto_renew_product_id": "com.example.premium.annual"}}
            }
            """#

        func rewritten(_ profile: Profile) -> JSONObject {
            (try? JSONParser.parse(JSONWriter().string(profile.json)))?.objectValue ?? JSONObject()
        }

        func transactionObject(_ object: JSONObject, _ index: Int) -> JSONObject? {
            guard case .array(let items)? = object["transactions"], items.indices.contains(index) else { return nil }
            return items[index].objectValue
        }

        @Test func unknownFieldsSurviveDecodeAndEncode() throws {
            let object = rewritten(try Profile(json: F.json(Self.file)))
            #expect(object["x_segment"] == F.json(#"{"cohort": 7}"#))
            let transaction = try #require(transactionObject(object, 0))
            #expect(transaction["app_account_token"] == .string("c0ffee"))
            #expect(transaction["vendor"] == F.json(#"{"raw": {"signedDate": 1700000000000}}"#))
            #expect(object["renewal_info"]?.objectValue?["t1"]?.objectValue?["auto_renew_product_id"] == .string("com.example.premium.annual"))
        }

        @Test func unknownEnumValuesSurviveAsWritten() throws {
            let profile = try Profile(json: F.json(Self.file))
            let purchase = profile.transactions[0]
            #expect(purchase.store.rawValue == "amazon" && purchase.type.rawValue == "winback_offer")
            #expect(purchase.environment.rawValue == "xcode" && purchase.ownershipType.rawValue == "family_member")
            let transaction = try #require(transactionObject(rewritten(profile), 0))
            #expect(transaction["store"] == .string("amazon"))
            #expect(transaction["type"] == .string("winback_offer"))
            #expect(transaction["environment"] == .string("xcode"))
            #expect(transaction["ownership_type"] == .string("family_member"))
            #expect(transaction["revocation_reason"] == .string("fraud_suspected"))
        }

        @Test func unchangedDatesAndNumbersKeepTheirSpelling() throws {
            let object = rewritten(try Profile(json: F.json(Self.file)))
            #expect(object["created_at"] == .string("2025-03-01"))
            let purchase = try #require(transactionObject(object, 0))
            #expect(purchase["purchased_at"] == .string("2020-01-15T15:10:36.517975+0000"))
            #expect(purchase["expires_at"] == .string("2026-02-01T11:00:00+01:00"))
            #expect(purchase["price"] == .number("9.90"))
            let grant = try #require(transactionObject(object, 1))
            #expect(grant["purchased_at"] == .string("2026-01-10T08:00:00.000Z"))
            #expect(grant["expires_at"] == .null)  // an explicit "never expires" stays explicit
        }

        @Test func changedValuesAreWrittenInTheToolsSpelling() throws {
            var profile = try Profile(json: F.json(Self.file))
            profile.transactions[0].expiresAt = F.date("2026-03-01T10:00:00.250Z")
            profile.transactions[0].price = 4.5
            profile.transactions[1].revokedAt = F.date("2026-01-20T00:00:00+02:00")
            profile.transactions[1].revokedBy = "dana"
            let object = rewritten(profile)
            let purchase = try #require(transactionObject(object, 0))
            #expect(purchase["expires_at"] == .string("2026-03-01T10:00:00.250Z"))
            #expect(purchase["price"] == .number("4.5"))
            let grant = try #require(transactionObject(object, 1))
            #expect(grant["revoked_at"] == .string("2026-01-19T22:00:00Z"))
            #expect(grant["revoked_by"] == .string("dana"))
        }

        @Test func clearedOptionalFieldsAreRemoved() throws {
            var profile = try Profile(json: F.json(Self.file))
            profile.transactions[0].revocationReason = nil
            profile.transactions[0].offerCode = nil
            let purchase = try #require(transactionObject(rewritten(profile), 0))
            #expect(purchase["revocation_reason"] == nil)
            #expect(purchase["offer_code"] == nil)
        }

        @Test func defaultsAreNotAddedToTheFile() throws {
            let profile = try Profile(json: F.json(#"{"customer_user_id": "u", "transactions": [{"transaction_id": "t", "product_id": "p", "store": "app_store", "type": "subscription_started", "purchased_at": "2026-01-01"}]}"#))
            let transaction = try #require(transactionObject(rewritten(profile), 0))
            #expect(Set(transaction.keys) == ["transaction_id", "product_id", "store", "type", "purchased_at"])
        }

        @Test func decodeEncodeDecodeIsTheSameProfile() throws {
            let profile = try Profile(json: F.json(Self.file))
            let again = try Profile(json: JSONParser.parse(JSONWriter().string(profile.json)))
            #expect(again == profile)
            #expect(JSONWriter().string(again.json) == JSONWriter().string(profile.json))
        }

        @Test func builtProfileRoundTrips() throws {
            var grant = F.grant("g1", from: "2026-01-10T08:00:00Z", starts: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z", key: "K-1")
            grant.reason = "Beta tester"
            var purchase = F.purchase("t2", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", original: "t1", environment: .sandbox)
            purchase.ownershipType = .familySharing
            purchase.offerCode = "SPRING26"
            purchase.price = 9.99
            let profile = F.profile([purchase, grant], renewals: ["t1": RenewalInfo(willRenew: true, gracePeriodExpiresAt: F.date("2026-02-10T00:00:00Z"))])
            let decoded = try Profile(json: JSONParser.parse(JSONWriter().string(profile.json)))
            #expect(decoded == profile)
            #expect(decoded.transactions[1].startsAt == F.date("2026-02-01T00:00:00Z"))
            #expect(decoded.transactions[0].originalTransactionID == "t1")
            #expect(decoded.renewalInfo["t1"]?.gracePeriodExpiresAt == F.date("2026-02-10T00:00:00Z"))
        }

        @Test func renewalInfoKeysAreWrittenInOrder() throws {
            let profile = F.profile([], renewals: ["b": RenewalInfo(willRenew: true), "a": RenewalInfo(willRenew: false)])
            #expect(profile.json.objectValue?["renewal_info"]?.objectValue?.keys == ["a", "b"])
        }
    }
}
