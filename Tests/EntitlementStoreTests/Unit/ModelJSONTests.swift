import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementStore
import EntitlementTestSupport

extension UnitTests {
    /// Profile, transaction and renewal-info files: required fields, versions, and
    /// keeping what this version does not understand.
    struct ModelJSONTests {
        typealias F = Fixture

        func decode(_ text: String) throws(FieldError) -> Profile { try Profile(json: F.json(text)) }

        func fieldError(_ text: String) -> FieldError? {
            #expect(throws: FieldError.self) { try Profile(json: F.json(text)) }
        }

        /// The profile example of docs/store-format.md.
        static let documented = #"""
            {
              "schema_version": 1,
              "profile_id": "6b1c2f8e-5f7a-4a39-9a55-0d6a9f1e2b11",
              "customer_user_id": "alice@example.com",
              "created_at": "2025-03-01T09:30:00Z",
              "custom_attributes": { "country": "DE", "age": 34 },
              "transactions": [
                { "transaction_id": "2000000101", "original_transaction_id": "2000000100", "product_id": "com.example.premium.monthly",
                  "store": "app_store", "type": "subscription_renewed", "purchased_at": "2026-01-01T10:00:00Z",
                  "expires_at": "2026-02-01T10:00:00Z", "environment": "production", "ownership_type": "owner", "price": 9.99, "currency": "USD" },
                { "transaction_id": "manual-3b0d1c", "type": "manual_grant", "store": "manual", "entitlement": "sports",
                  "purchased_at": "2026-01-10T08:00:00Z", "expires_at": "2026-02-10T08:00:00Z", "granted_at": "2026-01-10T08:00:00Z",
                  "granted_by": "dana", "reason": "Compensation for outage INC-42", "idempotency_key": "INC-42-alice" }
              ],
              "renewal_info": {
                "2000000100": { "will_renew": true, "unsubscribed_at": null, "billing_issue_detected_at": null,
                                "grace_period_expires_at": null, "is_in_billing_retry": false }
              }
            }
            """#

        @Test func documentedExampleDecodes() throws {
            let profile = try decode(Self.documented)
            #expect(profile.customerUserID == "alice@example.com")
            #expect(profile.profileID == "6b1c2f8e-5f7a-4a39-9a55-0d6a9f1e2b11")
            #expect(profile.createdAt == F.date("2025-03-01T09:30:00Z"))
            #expect(profile.customAttributes["age"] == .number("34"))
            let purchase = profile.transactions[0]
            #expect(purchase.originalTransactionID == "2000000100")
            #expect(purchase.store == .appStore && purchase.type == .subscriptionRenewed)
            #expect(purchase.price == 9.99 && purchase.currency == "USD")
            #expect(purchase.environment == .production && purchase.ownershipType == .owner)
            let grant = profile.transactions[1]
            #expect(grant.isManualGrant && grant.entitlement == "sports" && grant.productID == nil)
            #expect(grant.grantedBy == "dana" && grant.idempotencyKey == "INC-42-alice" && grant.reason == "Compensation for outage INC-42")
            let renewal = try #require(profile.renewalInfo["2000000100"])
            #expect(renewal.willRenew == true && renewal.isInBillingRetry == false)
            #expect(renewal.unsubscribedAt == nil && renewal.billingIssueDetectedAt == nil && renewal.gracePeriodExpiresAt == nil)
            #expect(profile.renewal(for: purchase)?.willRenew == true)
        }

        @Test func minimalProfileHasTheDocumentedDefaults() throws {
            let profile = try decode(#"{"customer_user_id": "bob", "transactions": [{"transaction_id": "t1", "product_id": "p", "store": "stripe", "type": "non_consumable_purchase", "purchased_at": "2026-01-01"}]}"#)
            #expect(profile.profileID == nil && profile.createdAt == nil && profile.renewalInfo.isEmpty && profile.customAttributes.isEmpty)
            let transaction = profile.transactions[0]
            #expect(transaction.originalTransactionID == "t1")
            #expect(transaction.expiresAt == nil && transaction.startsAt == nil && transaction.revokedAt == nil)
            #expect(transaction.environment == .production && transaction.ownershipType == .owner)
            #expect(try decode(#"{"customer_user_id": "bob"}"#).transactions.isEmpty)
        }

        @Test func manualGrantNeedsNeitherProductNorStore() throws {
            let profile = try decode(#"{"customer_user_id": "b", "transactions": [{"transaction_id": "g", "type": "manual_grant", "entitlement": "premium", "purchased_at": "2026-01-01"}]}"#)
            #expect(profile.transactions[0].store == .manual)
        }

        // MARK: Errors name the field's path

        static func transaction(_ fields: String) -> String {
            #"{"customer_user_id": "u", "transactions": [{"transaction_id": "ok", "product_id": "p", "store": "app_store", "type": "subscription_started", "purchased_at": "2026-01-01"}, {"#
                + fields + "}]}"
        }

        @Test(arguments: [
            (#"{"profile_id": "x"}"#, "customer_user_id", "required field is missing"),
            (#"{"customer_user_id": ""}"#, "customer_user_id", "must not be empty"),
            (#"{"customer_user_id": 42}"#, "customer_user_id", "expected a string, found a number"),
            (#"[]"#, "", "expected an object, found an array"),
            (#"{"customer_user_id": "u", "transactions": {}}"#, "transactions", "expected an array, found an object"),
            (#"{"customer_user_id": "u", "transactions": ["t"]}"#, "transactions[0]", "expected an object, found a string"),
            (#"{"customer_user_id": "u", "transactions": [{"product_id": "p", "store": "s", "type": "t", "purchased_at": "2026-01-01"}]}"#,
             "transactions[0].transaction_id", "required field is missing"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "type": "t""#), "transactions[1].purchased_at", "required field is missing"),
            (transaction(#""transaction_id": "t", "store": "s", "type": "t", "purchased_at": "2026-01-01""#), "transactions[1].product_id", "required field is missing"),
            (transaction(#""transaction_id": "t", "product_id": "", "store": "s", "type": "t", "purchased_at": "2026-01-01""#), "transactions[1].product_id", "required field is missing"),
            (transaction(#""transaction_id": "t", "product_id": "p", "type": "t", "purchased_at": "2026-01-01""#), "transactions[1].store", "required field is missing"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "purchased_at": "2026-01-01""#), "transactions[1].type", "required field is missing"),
            (transaction(#""transaction_id": "t", "type": "manual_grant", "purchased_at": "2026-01-01""#), "transactions[1].entitlement", "a manual_grant needs the entitlement it grants"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "type": "t", "purchased_at": "yesterday""#), "transactions[1].purchased_at", "'yesterday' is not an ISO 8601 date"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "type": "t", "purchased_at": 1767225600"#), "transactions[1].purchased_at", "expected an ISO 8601 date string, found a number"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "type": "t", "purchased_at": "2026-01-01", "expires_at": "2026-02-30""#), "transactions[1].expires_at", "is not an ISO 8601 date"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "type": "t", "purchased_at": "2026-01-01", "price": "9.99""#), "transactions[1].price", "expected a number, found a string"),
            (transaction(#""transaction_id": "t", "product_id": "p", "store": "s", "type": "t", "purchased_at": "2026-01-01", "vendor": []"#), "transactions[1].vendor", "expected an object, found an array"),
            (#"{"customer_user_id": "u", "renewal_info": {"t1": {"will_renew": "yes"}}}"#, "renewal_info.t1.will_renew", "expected true or false, found a string"),
            (#"{"customer_user_id": "u", "renewal_info": {"t1": {"grace_period_expires_at": "soon"}}}"#, "renewal_info.t1.grace_period_expires_at", "is not an ISO 8601 date"),
            (#"{"customer_user_id": "u", "custom_attributes": {"tags": ["a"]}}"#, "custom_attributes.tags", "expected a string or a number, found an array"),
            (#"{"customer_user_id": "u", "schema_version": 0}"#, "schema_version", "must be 1 or more, found 0"),
            (#"{"customer_user_id": "u", "schema_version": 1.5}"#, "schema_version", "expected a whole number, found a number"),
            (#"{"customer_user_id": "u", "schema_version": "1"}"#, "schema_version", "expected a whole number, found a string"),
        ])
        func invalidFieldsNameTheirPath(text: String, path: String, message: String) {
            let error = fieldError(text)
            #expect(error?.path == path)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        }

        @Test func fieldErrorDescriptionStartsWithThePath() {
            #expect(FieldError(path: "transactions[0].purchased_at", message: "required field is missing").description
                == "transactions[0].purchased_at: required field is missing")
            #expect(FieldError(path: "", message: "expected an object, found null").description == "expected an object, found null")
        }

        // MARK: Versions

        @Test func newerSchemaVersionIsRefused() {
            let error = fieldError(#"{"schema_version": 2, "customer_user_id": "u"}"#)
            #expect(error == FieldError(path: "schema_version", message: "schema_version 2 is newer than this tool supports (1); upgrade entitlement",
                                        newerSchemaVersion: 2))
            #expect(fieldError(#"{"schema_version": 0, "customer_user_id": "u"}"#)?.newerSchemaVersion == nil)
            #expect(EntitlementStore.fieldError(error!, path: "p.json") == .newerSchema(path: "p.json", version: 2))
        }

        @Test func missingSchemaVersionMeansOneAndIsWrittenAsOne() throws {
            let profile = try decode(#"{"customer_user_id": "u"}"#)
            #expect(profile.json.objectValue?["schema_version"] == .number("1"))
            #expect(try decode(#"{"customer_user_id": "u", "schema_version": null}"#) == profile)
        }
    }
}
