@testable import EntitlementBasics
@testable import EntitlementJSON
@testable import EntitlementModel
@testable import EntitlementRules
@testable import EntitlementStore
@testable import EntitlementTrust
@testable import EntitlementImport
@testable import EntitlementTeam
@testable import EntitlementIngest
@testable import EntitlementCLI
import EntitlementTestSupport
import Foundation
import Testing

/// The vendor harnesses' seeds reach past the parser: each (but Adapty's save request) reads
/// into events, so the fuzzer starts from inputs that exercise the mappers and the applier.
@Suite(.tags(.unit))
struct VendorFuzzSeedTests {
    @Test(arguments: Vendor.allCases)
    func seedsReadIntoEvents(_ vendor: Vendor) throws {
        let directory = "\(repositoryRoot)/Fuzz/corpus/\(vendor.rawValue)"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.count >= 3)
        for name in names where name != "save-verification.json" {
            let body = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
            let request = WebhookRequest(vendor: vendor, body: body, receivedAt: Date(timeIntervalSince1970: 1_767_225_600), overHTTP: false)
            let events = try VendorTable.adapter(for: vendor)?.events(in: request, with: FuzzTargets.webhookAuthenticator) ?? []
            #expect(!events.isEmpty, "\(vendor.rawValue)/\(name)")
        }
    }
}
