import Foundation
import Testing
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// Documents that must be refused: one clear error naming the file and the field; nothing written.
    @Suite(.tags(.cli))
    struct Errors {
        struct Refusal: CustomTestStringConvertible, Sendable {
            let file: String
            let exit: Int32
            /// What follows `Error: FILE: ` (the path exactly; the wording may go on).
            let message: String
            var testDescription: String { file }
        }

        static let refusals: [Refusal] = [
            Refusal(file: "unknown-shape.json", exit: 2, message: "unknown document shape: expected an App Store transaction"),
            Refusal(file: "ambiguous-shape.json", exit: 2, message: "ambiguous document: it looks like RevenueCat (has \"subscriber\") and Adapty (has \"profile_id\")"),
            Refusal(file: "appstore/transaction-lifetime.json", exit: 2, message: "the document does not say which user it belongs to"),
            Refusal(file: "revenuecat/invalid-malformed.json", exit: 4, message: "invalid JSON at line 25, column 7: unexpected '\"', expected ',' or '}'"),
            Refusal(file: "revenuecat/invalid-missing-field.json", exit: 4, message: "request_date: missing required field"),
            Refusal(file: "revenuecat/invalid-wrong-type.json", exit: 4,
                    message: "subscriber.subscriptions[\"com.example.premium.monthly\"].expires_date: expected a date (ISO 8601 string), found 1775034000000"),
            Refusal(file: "appstore/invalid-wrong-type.json", exit: 4, message: "expiresDate: expected epoch milliseconds (a number), found \"2026-04-01T09:00:00Z\""),
            Refusal(file: "appstore/invalid-broken-jws.json", exit: 4, message: "data.signedTransactionInfo: not a valid JWS (the payload is not base64url-encoded JSON)"),
            Refusal(file: "adapty/invalid-wrong-type.json", exit: 4, message: "paid_access_levels.premium.is_active: expected a boolean, found \"yes\""),
            Refusal(file: "adapty/invalid-missing-field.json", exit: 4, message: "subscriptions[\"com.example.premium.monthly\"].activated_at: missing required field"),
            Refusal(file: "qonversion/invalid-wrong-type.json", exit: 4,
                    message: "[0].store_transactions[0].transaction_timestamp: expected epoch seconds (a number), found \"2026-03-01T09:00:00Z\""),
        ]

        @Test(arguments: refusals)
        func refused(_ refusal: Refusal) {
            let store = Store()
            let before = store.snapshot()
            let path = fixtures + "/" + refusal.file
            let result = store.importing([path, "--at", documentTimeText])
            #expect(result.exitCode == refusal.exit)
            #expect(result.stderr.contains("Error: \(path): \(refusal.message)"), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: "Error: ").count == 2, "one error")
            #expect(sameFiles(before, store.snapshot()), "nothing written")
        }

        @Test func customerInfoWithAWrongTypeFailsOnTheFirstFieldInOrder() {
            // Like RevenueCat's CustomerInfoWithInvalidSubscription.json: sub1 is checked before sub2,
            // and purchase_date before expires_date.
            let document = """
                {"request_date": "2022-03-08T17:42:58Z", "subscriber": {"original_app_user_id": "x", "subscriptions": {
                  "sub2": {"purchase_date": "2022-04-12T00:03:28Z"},
                  "sub1": {"expires_date": [], "original_purchase_date": "this is not a date", "period_type": true,
                           "purchase_date": false, "store": "invalid_store"}}, "entitlements": {}}}
                """
            let result = Store().importing(["-"], stdin: document)
            #expect(result.exitCode == 4)
            #expect(result.stderr.contains("Error: <stdin>: subscriber.subscriptions.sub1.purchase_date: expected a date (ISO 8601 string), found false"))
        }

        @Test(arguments: [
            ("", "the document is empty"),
            ("null", "unknown document shape"),
            ("[]", "unknown document shape"),
            ("\"hello\"", "unknown document shape"),
            ("{\"a\": 1, \"a\": 2}", "invalid JSON at line 1, column 10: duplicate key \"a\""),
            ("[{\"transactionId\": \"1\", \"productId\": \"p\", \"purchaseDate\": 1}, \"x\"]", "[1]: expected an object, found \"x\""),
            ("{\"subscriber\": {}}", "request_date: missing required field"),
            ("{\"data\": [], \"object\": \"list\"}", "unknown document shape"),
            ("[{\"id\": \"premium\", \"active\": 2, \"started_timestamp\": 1}]", "[0].active: expected 0, 1, true or false, found 2"),
            ("{\"profile_id\": \"p\", \"custom_attributes\": {\"tags\": [1]}}", "custom_attributes.tags: expected a string, number or boolean, found [1]"),
            ("{\"transactionId\": \"1\", \"productId\": \"p\", \"purchaseDate\": true}", "purchaseDate: expected epoch milliseconds (a number), found true"),
            ("{\"transactionId\": \"1\", \"productId\": \"p\", \"purchaseDate\": -9223372036854775808}",
             "purchaseDate: the date -9223372036854775808 is outside the years 0001 to 9999"),
            ("{\"transactionId\": \"1\", \"productId\": \"p\", \"purchaseDate\": -9223372036854774810}",
             "purchaseDate: the date -9223372036854774810 is outside the years 0001 to 9999"),
            ("{\"transactionId\": \"1\", \"productId\": \"p\", \"purchaseDate\": 1, \"expiresDate\": 253402300800000}",
             "expiresDate: the date 253402300800000 is outside the years 0001 to 9999"),
            ("[{\"id\": \"p\", \"active\": 1, \"started_timestamp\": 1e300}]", "[0].started_timestamp: the date 1e300 is outside the years 0001 to 9999"),
            ("{\"transactionId\": \"1\", \"productId\": \"\", \"purchaseDate\": 1}", "productId: must not be empty"),
            ("{\"request_date\": \"2026-03-15T12:00:00Z\", \"subscriber\": {\"entitlements\": {\"\": {\"product_identifier\": \"p\"}}}}",
             "subscriber.entitlements[\"\"]: an entitlement id must be non-empty text"),
        ])
        func badDocuments(_ document: String, _ message: String) {
            let result = Store().importing(["-", "--user", "u"], stdin: document)
            #expect(result.exitCode != 0)
            #expect(result.stderr.contains("Error: <stdin>: \(message)"), "\(result.stderr)")
        }

        /// Adapty checks a webhook URL by posting `{}`; saved and handed to `import`, it is named
        /// as what it is, with or without `--format`, and nothing is written.
        @Test func anEmptyObjectIsNamedAsAdaptysSaveCheck() {
            let store = Store()
            for format in [[], ["--format", "adapty"], ["--format", "revenuecat"]] {
                let result = store.importing(["-"] + format, stdin: "{}\n")
                #expect(result.exitCode == 2, "\(format): \(result.stderr)")
                #expect(result.stderr.contains("Error: <stdin>: an empty JSON object (Adapty posts one to check a webhook URL), not a document to import"),
                        "\(format): \(result.stderr)")
                #expect(!result.stderr.contains("unknown document shape"))
            }
            #expect(store.profileNames().isEmpty)
        }

        @Test func formatOptionRestrictsAndSettles() {
            let store = Store()
            let wrong = store.importing([fixtures + "/adapty/profile-active.json", "--format", "qonversion"])
            #expect(wrong.exitCode == 2)
            #expect(wrong.stderr.contains("not a document in the qonversion format: expected an array of entitlements or an object with \"permissions\""))
            let settled = store.importing([fixtures + "/ambiguous-shape.json", "--format", "revenuecat"])
            #expect(settled.exitCode == 0, "\(settled.stderr)")
            #expect(settled.stdout.contains("RevenueCat subscriber → nothing to import"))
            let suggestion = runCLI(["import", "x.json", "--format", "adapti"])
            #expect(suggestion.exitCode == 2 && suggestion.stderr.contains("Did you mean 'adapty'?"))
        }

        @Test func severalAppAccountTokensNeedTheUserOption() {
            let document = """
                [{"transactionId": "1", "productId": "p", "purchaseDate": 1, "appAccountToken": "a"},
                 {"transactionId": "2", "productId": "p", "purchaseDate": 1, "appAccountToken": "b"}]
                """
            let store = Store()
            let result = store.importing(["-"], stdin: document)
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("<stdin> names several users (appAccountToken a, b)."))
            #expect(store.importing(["-", "--user", "u"], stdin: document).exitCode == 0)
        }
    }
}
