#if !FUZZING
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
#endif
import FoundationEssentials

/// One harness per vendor webhook body parser: `webhook`'s and
/// `ingest`'s front end for each vendor. Compiled with FuzzTargets.swift (scripts/fuzz.sh).
extension FuzzTargets {
    static let vendors: [(name: String, check: @Sendable ([UInt8]) -> String?)] = Vendor.allCases.map { vendor in
        (vendor.rawValue, { vendorBody(vendor, $0) })
    }

    /// Local input (no headers), App Store data accepted unsigned only when it says Xcode, so
    /// the fuzzer reaches the mappers behind the signature check.
    static let webhookAuthenticator = WebhookAuthenticator(secrets: nil, appStore: verifiers[1])

    /// A body is refused with a reason or read into events, never a crash or hang; and the
    /// events, applied to new customers by the pure applier, write only profiles the store
    /// reads back and a configuration it reads back (else one bad event would fail the
    /// journal of its whole batch).
    static func vendorBody(_ vendor: Vendor, _ bytes: [UInt8]) -> String? {
        guard let adapter = VendorTable.adapter(for: vendor) else { return "no adapter for \(vendor.rawValue)" }
        let request = WebhookRequest(vendor: vendor, body: bytes, receivedAt: Date(timeIntervalSince1970: 1_767_225_600), overHTTP: false)
        _ = adapter.recognizes((try? JSONParser.parse(bytes)) ?? .null)
        guard let events = try? adapter.events(in: request, with: webhookAuthenticator) else { return nil }
        var profiles: [String: Profile?] = [:]
        for user in events.flatMap(EventApplier.customers) { profiles[user] = .some(nil) }
        let configuration = ProductConfiguration(entitlements: [])
        var applier = EventApplier(configuration: configuration, profiles: profiles)
        for event in events.sorted(by: IngestEvent.applicationOrder) {
            if event.id.isEmpty { return "an event without an id" }
            _ = applier.apply(event)
        }
        for user in applier.changed {
            guard let profile = applier.profiles[user] ?? nil else { continue }
            let written = JSONWriter().bytes(profile.json)
            guard let back = try? EntitlementStore.decodeProfile(written, path: "p.json") else { return "an event wrote a profile the store cannot read back" }
            guard back.customerUserID.utf8.elementsEqual(profile.customerUserID.utf8) else { return "customer_user_id does not read back" }
        }
        guard (try? ProductConfiguration(json: applier.configuration.json)) != nil else { return "an event wrote a configuration that does not read back" }
        return nil
    }
}
