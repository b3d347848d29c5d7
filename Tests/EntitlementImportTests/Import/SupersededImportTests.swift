import Foundation
import Testing
@testable import EntitlementBasics
@testable import EntitlementImport
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
import EntitlementCLITestSupport
import EntitlementTestSupport

extension ImportTests {
    /// An App Store upgrade inside one subscription: `isUpgraded`, and the vendor comparison.
    struct Superseded {
        static let config = #"{"schema_version": 1, "entitlements": {"premium": {"products": ["pro.yearly", "pro.monthly"]}}}"#
        /// 2025-01-01 yearly, upgraded on 2025-03-01 to a monthly plan of the same subscription (ending 2025-04-01).
        static let yearly = #"{"transactionId": "y1", "originalTransactionId": "y1", "productId": "pro.yearly", "type": "Auto-Renewable Subscription", "purchaseDate": 1735689600000, "expiresDate": 1767225600000, "isUpgraded": true}"#
        static let monthly = #"{"transactionId": "m2", "originalTransactionId": "y1", "productId": "pro.monthly", "type": "Auto-Renewable Subscription", "purchaseDate": 1740787200000, "expiresDate": 1743465600000}"#

        @Test func isUpgradedIsImportedAndEndsTheOldPeriod() throws {
            let store = Store(config: Self.config)
            let result = store.importing(["-", "--user", "u", "--at", "2025-05-01T00:00:00Z"], stdin: "[\(Self.yearly), \(Self.monthly)]")
            #expect(result.exitCode == 0, "\(result.stderr)")
            let profile = try #require(store.profile("u"))
            #expect(profile.transaction(id: "y1")?.isUpgraded == true)
            #expect(profile.transaction(id: "m2")?.isUpgraded == nil)
            #expect(store.state("u", "premium", at: "2025-03-15T00:00:00Z") == "active")
            #expect(store.state("u", "premium", at: "2025-05-01T00:00:00Z") == "expired", "not active until the yearly plan's own expiry")
            let explain = runCLI(["check", "u", "premium", "--store", store.path, "--at", "2025-05-01T00:00:00Z", "--explain"])
            #expect(explain.stdout.contains("y1  pro.yearly  app_store: superseded by m2 at 2025-03-01T00:00:00Z"))
        }

        /// Apple's status 2 (expired) for the subscription agrees once the old period is superseded;
        /// the same comparison flags a tool that kept the yearly period alive (the yearly alone reads active).
        @Test func theVendorComparisonCatchesASupersededPeriod() throws {
            let configuration = try ProductConfiguration(json: JSONParser.parse(Self.config))
            let at = try #require(ISODate.parse("2025-05-01T00:00:00Z"))
            func document(_ payloads: [String]) throws -> ImportDocument {
                var document = ImportDocument(format: .appstore, shape: .transactions)
                for payload in payloads {
                    guard case .object(let object) = try JSONParser.parse(payload) else { throw FieldError(path: "", message: "not an object") }
                    _ = try AppStorePayloads.transaction(FieldReader(object), into: &document)
                }
                AppStoreMapper.appendStatement(status: 2, subject: "y1", into: &document)
                return document
            }
            let both = Reconciler.reconcile(try document([Self.yearly, Self.monthly]), configuration: configuration, at: at)
            #expect(both.first?.result == .agree && both.first?.ours == .expired)
            let notUpgraded = Self.yearly.replacingOccurrences(of: #", "isUpgraded": true"#, with: "")
            let stale = Reconciler.reconcile(try document([notUpgraded]), configuration: configuration, at: at)
            #expect(stale.first?.result == .disagree && stale.first?.ours == .active)
        }
    }
}
