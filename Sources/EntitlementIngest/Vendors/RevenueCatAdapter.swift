import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// RevenueCat webhooks: `{"api_version": "1.0", "event": {…}}` behind a fixed `Authorization`
/// value (docs/ingest.md, "RevenueCat"). Deduplicated on `event.id`, ordered by `event_timestamp_ms`.
struct RevenueCatAdapter: VendorAdapter {
    let vendor = Vendor.revenuecat

    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication {
        authenticator.requireHeader(request, header: "authorization", vendor: vendor, secretKey: "authorization")
    }

    func recognizes(_ root: JSONValue) -> Bool {
        guard let event = root.objectValue?["event"]?.objectValue else { return false }
        return event["type"] != nil && event["id"] != nil
    }

    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent] {
        let root = try EventBody.object(request.body, vendor: vendor)
        guard case .object(let event)? = root["event"] else { throw .malformed("a RevenueCat webhook needs an \"event\" object") }
        let verification = authenticator.verification(of: request, header: "authorization header")
        do throws(FieldError) {
            let r = FieldReader(event, path: "event")
            let id = try r.vendorID("id")
            let type = try r.vendorID("type")
            let stamped = try r.vendorEpochMilliseconds("event_timestamp_ms")
            let purchased = try r.vendorEpochMilliseconds("purchased_at_ms")
            guard let time = stamped ?? purchased else { throw r.vendorMissing("event_timestamp_ms") }
            var customer = try r.vendorNonEmptyString("app_user_id")
            var effects = try RevenueCatEventMapper.effects(type: type, r, time: time)
            if let transfer = effects.transfer { customer = transfer.to }
            var aliases = (try r.vendorArray("aliases") ?? []).compactMap(\.stringValue)
            if let original = try r.vendorNonEmptyString("original_app_user_id") { aliases.append(original) }
            effects.aliases = Self.distinct(aliases.filter { !$0.isEmpty && $0 != customer })
            return [IngestEvent(vendor: vendor, id: id, type: type, time: time, customer: customer, effects: effects, verification: verification)]
        } catch {
            throw .malformed(error.description)
        }
    }

    private static func distinct(_ ids: [String]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert($0).inserted }
    }
}
