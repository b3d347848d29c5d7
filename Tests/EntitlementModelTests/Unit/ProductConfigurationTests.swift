import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementTestSupport

extension UnitTests {
    /// `config.json`: the product configuration and its errors.
    struct ProductConfigurationTests {
        typealias F = Fixture

        static let documented = #"""
            {
              "schema_version": 1,
              "entitlements": {
                "premium": {
                  "description": "Everything in the app",
                  "products": ["com.example.premium.monthly", "com.example.premium.annual", "com.example.lifetime"]
                },
                "sports": { "products": ["com.example.sports.monthly", "com.example.premium.annual"] }
              }
            }
            """#

        func decode(_ text: String) throws(FieldError) -> ProductConfiguration { try ProductConfiguration(json: F.json(text)) }

        @Test func documentedExampleDecodes() throws {
            let configuration = try decode(Self.documented)
            #expect(configuration.entitlementIDs == ["premium", "sports"])
            #expect(configuration.entitlement("premium")?.description == "Everything in the app")
            #expect(configuration.entitlement("sports")?.description == nil)
            #expect(configuration.entitlement("premium")?.products.count == 3)
            #expect(configuration.product(F.annual, unlocks: "sports"))
            #expect(!configuration.product(F.monthly, unlocks: "sports"))
            #expect(!configuration.product(F.monthly, unlocks: "missing"))
            #expect(configuration.entitlements(unlockedBy: F.annual) == ["premium", "sports"])
            #expect(configuration.entitlements(unlockedBy: "com.example.other").isEmpty)
            #expect(configuration.entitlement("missing") == nil)
        }

        @Test func entitlementsKeepTheFileOrder() throws {
            let configuration = try decode(#"{"entitlements": {"zeta": {}, "alpha": {"products": []}, "mid": {"products": null}}}"#)
            #expect(configuration.entitlementIDs == ["zeta", "alpha", "mid"])
            #expect(configuration.entitlements.allSatisfy { $0.products.isEmpty })
        }

        @Test(arguments: [
            (#"{"schema_version": 1}"#, "entitlements", "required field is missing"),
            (#"{"entitlements": []}"#, "entitlements", "expected an object, found an array"),
            (#"{"entitlements": {"premium": []}}"#, "entitlements.premium", "expected an object, found an array"),
            (#"{"entitlements": {"premium": {"products": "p"}}}"#, "entitlements.premium.products", "expected an array, found a string"),
            (#"{"entitlements": {"premium": {"products": ["p", 7]}}}"#, "entitlements.premium.products[1]", "expected a product id string, found a number"),
            (#"{"entitlements": {"premium": {"products": [""]}}}"#, "entitlements.premium.products[0]", "expected a product id string"),
            (#"{"entitlements": {"premium": {"description": 3}}}"#, "entitlements.premium.description", "expected a string, found a number"),
            (#"{"entitlements": {"": {}}}"#, "entitlements.", "an entitlement id must be non-empty text without control characters"),
            (#"{"entitlements": {"a\u0007b": {}}}"#, "entitlements.a\u{7}b", "without control characters"),
            (#"{"schema_version": 2, "entitlements": {}}"#, "schema_version", "schema_version 2 is newer than this tool supports (1); upgrade entitlement"),
            (#"{"schema_version": -1, "entitlements": {}}"#, "schema_version", "must be 1 or more"),
            (#""premium""#, "", "expected an object, found a string"),
        ])
        func invalidConfigurationNamesTheField(text: String, path: String, message: String) {
            let error = #expect(throws: FieldError.self) { try decode(text) }
            #expect(error?.path == path)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        }

        @Test func unknownFieldsSurviveAndTheVersionIsWritten() throws {
            let configuration = try decode(#"{"x_owner": "growth", "entitlements": {"premium": {"products": ["p"], "x_color": "gold"}}}"#)
            let object = try #require(configuration.json.objectValue)
            #expect(object["schema_version"] == .number("1"))
            #expect(object["x_owner"] == .string("growth"))
            #expect(object["entitlements"]?.objectValue?["premium"]?.objectValue?["x_color"] == .string("gold"))
            let again = try ProductConfiguration(json: JSONParser.parse(JSONWriter().string(configuration.json)))
            #expect(JSONWriter().string(again.json) == JSONWriter().string(configuration.json))
        }

        @Test func builtConfigurationRoundTrips() throws {
            let text = JSONWriter().string(F.configuration.json)
            let decoded = try ProductConfiguration(json: JSONParser.parse(text))
            #expect(decoded.entitlementIDs == F.configuration.entitlementIDs)
            #expect(decoded.entitlements.map(\.products) == F.configuration.entitlements.map(\.products))
        }
    }
}
