import Foundation
import Testing
@testable import EntitlementJSON
import EntitlementCLITestSupport
import EntitlementTestSupport

/// `verify` reports every unknown key of every store file, with "did you
/// mean", and renewal info that belongs to no transaction; `vendor` objects may hold anything.
@Suite(.tags(.cli))
struct VerifyUnknownKeysTests {
    let directory = TemporaryDirectory()

    func problems(config: String? = nil, profile: String) throws -> [JSONObject] {
        let store = config.map { directory.store(config: $0) } ?? directory.store()
        writeFile(store + "/profiles/u.json", profile)
        let result = runCLI(["verify", "--store", store, "--json"])
        let object = try #require(try JSONParser.parse(result.stdout).objectValue)
        guard case .array(let items)? = object["problems"] else { Issue.record("no problems array: \(result.stdout)"); return [] }
        #expect(result.exitCode == (items.isEmpty ? 0 : 4))
        return items.compactMap(\.objectValue)
    }

    func fieldsAndMessages(_ problems: [JSONObject]) -> [String: String] {
        Dictionary(problems.map { ($0["field"]?.stringValue ?? "-", $0["message"]?.stringValue ?? "") }) { a, _ in a }
    }

    static let transaction = #"{"transaction_id": "t1", "product_id": "com.example.monthly", "type": "subscription_started", "store": "app_store", "purchased_at": "2026-01-01T00:00:00Z", "expires_at": "2026-02-01T00:00:00Z""#

    @Test func profileAndRenewalTyposAreReported() throws {
        let found = fieldsAndMessages(try problems(profile: """
            {"customer_user_id": "u", "transaction": [], "custom_atributes": {}, "transactions": [\(Self.transaction)}],
             "renewal_info": {"t1": {"grace_period_expire_at": "2026-02-05T00:00:00Z", "is_in_biling_retry": true},
                              "t9": {"will_renew": true}}}
            """))
        #expect(found["transaction"] == "unknown field 'transaction'; did you mean 'transactions'? (an unknown field is kept but ignored)")
        #expect(found["custom_atributes"]?.contains("did you mean 'custom_attributes'?") == true)
        #expect(found["renewal_info.t1.grace_period_expire_at"]?.contains("did you mean 'grace_period_expires_at'?") == true)
        #expect(found["renewal_info.t1.is_in_biling_retry"]?.contains("did you mean 'is_in_billing_retry'?") == true)
        #expect(found["renewal_info.t9"] == "renewal info for 't9', which is the original_transaction_id of no transaction: it applies to nothing")
        #expect(found.count == 5)
    }

    @Test func farUnknownKeysAreReportedTooButVendorObjectsHoldAnything() throws {
        let found = fieldsAndMessages(try problems(profile: """
            {"customer_user_id": "u", "transactions": [\(Self.transaction), "zzz_custom": 1, "vendor": {"appstore": {"anything": 1}, "mine": 2}}],
             "renewal_info": {"t1": {"will_renew": true, "vendor": {"appstore": {"whatever": true}}}}}
            """))
        #expect(found == ["transactions[0].zzz_custom": "unknown field 'zzz_custom' (an unknown field is kept but ignored)"])
    }

    @Test func configurationTyposAreReported() throws {
        let config = #"{"schema_version": 1, "profile_layot": "fanout", "entitlements": {"premium": {"product": ["m"], "descripton": "x", "products": ["com.example.monthly"]}}}"#
        let found = fieldsAndMessages(try problems(config: config, profile: #"{"customer_user_id": "u", "transactions": []}"#))
        #expect(found["profile_layot"]?.contains("did you mean 'profile_layout'?") == true)
        #expect(found["entitlements.premium.product"]?.contains("did you mean 'products'?") == true)
        #expect(found["entitlements.premium.descripton"]?.contains("did you mean 'description'?") == true)
        #expect(found.count == 3)
    }

    @Test func aCleanProfileStaysClean() throws {
        #expect(try problems(profile: """
            {"schema_version": 1, "customer_user_id": "u", "profile_id": "p", "created_at": "2026-01-01T00:00:00Z", "custom_attributes": {"a": "b"},
             "transactions": [\(Self.transaction), "original_transaction_id": "t1"}], "renewal_info": {"t1": {"will_renew": false}}}
            """).isEmpty)
    }
}
