import Foundation
import Testing
@testable import EntitlementJSON
@testable import EntitlementModel
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// `import` changes the shared configuration only with
    /// `--update-config`, names each change it did not make, and warns about purchases of
    /// products that no entitlement maps.
    @Suite(.tags(.cli))
    struct ImportConfigurationNoticeTests {
        static let active = ImportTests.fixtures + "/revenuecat/subscriber-active.json"

        @Test func withoutTheFlagTheConfigurationIsUnchangedAndEachChangeIsNamed() {
            let store = Store()
            let before = readFile(store.path + "/config.json")
            let (result, summary) = store.importJSON([Self.active], updateConfig: false)
            #expect(result.exitCode == 0)
            #expect(readFile(store.path + "/config.json") == before)
            #expect(result.stderr.contains("config.json not changed: the document maps product com.example.sports.monthly to sports"))
            #expect(result.stderr.contains("--update-config"))
            #expect(summary.document().value["config_added"] == .array([]))
            #expect(summary.document().value["config_not_added"]?.arrayValue.count == 1)
            // The verdicts still use the document's own mapping.
            #expect(summary.document().value["verdicts"]?.arrayValue.allSatisfy { $0["result"]?.stringValue == "agree" } == true)
        }

        @Test func theFlagWritesTheChangeQuietly() {
            let store = Store()
            let result = store.importing([Self.active])
            #expect(result.exitCode == 0)
            #expect(!result.stderr.contains("config.json not changed"))
            #expect(store.configuration()?.product("com.example.sports.monthly", unlocks: "sports") == true)
        }

        @Test func aDryRunShowsTheChangeItWouldNeed() {
            let store = Store()
            let text = store.importing([Self.active, "--dry-run"], updateConfig: false)
            #expect(text.stdout.contains("configuration not changed (needs --update-config): sports += com.example.sports.monthly"))
            let applied = store.importing([Self.active, "--dry-run"])
            #expect(applied.stdout.contains("  configuration: sports += com.example.sports.monthly"))
        }

        @Test func aPurchaseOfAnUnmappedProductIsNamed() {
            let store = Store(config: #"{"schema_version": 1, "entitlements": {"premium": {"products": ["com.example.other"]}}}"#)
            // An App Store notification (it states no mapping) of a product no entitlement lists.
            let file = ImportTests.fixtures + "/appstore/notification-active.json"
            let result = store.importing([file, "--user", "apple@example.com"], updateConfig: false)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stderr.contains("product com.example.premium.monthly unlocks no entitlement"))
            #expect(result.stderr.contains("entitlements.<ENTITLEMENT>.products in config.json"))
            // Mapped products and manual grants are not named.
            let mapped = Store().importing([Self.active])
            #expect(!mapped.stderr.contains("unlocks no entitlement"))
        }
    }
}

extension ImportTests {
    /// RevenueCat API v2 and Adapty API v2 documents are refused by name
    /// (not as an unknown shape), with or without --format, and nothing is written.
    @Suite(.tags(.cli))
    struct UnsupportedVendorVersionTests {
        @Test(arguments: [
            ("revenuecat-v2-customer.json", "RevenueCat API v2 customer object is not imported by this version", "revenuecat"),
            ("revenuecat-v2-subscriptions.json", "RevenueCat API v2 list of subscription objects is not imported by this version", "revenuecat"),
            ("revenuecat-v2-purchases.json", "RevenueCat API v2 list of purchase objects is not imported by this version", "revenuecat"),
            ("adapty-v2-profile.json", "Adapty server-side API v2 profile (access_levels as an array) is not imported by this version", "adapty"),
        ])
        func refusedByName(file: String, message: String, format: String) {
            let store = Store()
            let path = ImportTests.fixtures + "/unsupported/" + file
            for arguments in [[path, "--user", "v2@example.com"], [path, "--user", "v2@example.com", "--format", format]] {
                let result = store.importing(arguments)
                #expect(result.exitCode == 2)
                #expect(result.stderr.contains(message), "\(result.stderr)")
                #expect(!result.stderr.contains("unknown document shape"))
                #expect(result.stderr.contains("docs/import.md, section 14"))
            }
            #expect(store.profile("v2@example.com") == nil)
        }
    }
}
