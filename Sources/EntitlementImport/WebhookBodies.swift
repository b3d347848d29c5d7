import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Webhook bodies handed to `import`: RevenueCat, Adapty and Qonversion events and Google
/// Play's Pub/Sub pushes are applied by `ingest --from` and `webhook` (ordered and
/// deduplicated), not imported. `import` refuses them by name (docs/import.md, section 17)
/// instead of calling them an unknown shape, or, for an Adapty event, reading its
/// `profile_id` as an empty profile. App Store notifications and Stripe events are documents
/// `import` reads, so they are not here.
enum WebhookBodies {
    /// The vendor whose webhook body `value` is, nil for anything else.
    static func vendor(_ value: JSONValue) -> Vendor? {
        guard let object = value.objectValue else { return nil }
        if case .object(let event)? = object["event"], object["api_version"] != nil || event["type"]?.stringValue != nil {
            return .revenuecat
        }
        if object["event_type"]?.stringValue != nil, object["profile_id"] != nil || object["event_properties"] != nil { return .adapty }
        if object["event_name"]?.stringValue != nil, object["user_id"] != nil || object["custom_user_id"] != nil { return .qonversion }
        if case .object(let message)? = object["message"], message["data"]?.stringValue != nil { return .googleplay }
        if object["packageName"] != nil,
           ["subscriptionNotification", "voidedPurchaseNotification", "testNotification", "oneTimeProductNotification"].contains(where: { object[$0] != nil }) {
            return .googleplay
        }
        return nil
    }

    /// The refusal of a webhook body, nil when `value` is none (or is another vendor's than `format`).
    static func refusal(_ value: JSONValue, file: String, format: Vendor?) -> EntitlementError? {
        guard let vendor = vendor(value), format == nil || format == vendor else { return nil }
        let what = vendor == .googleplay ? "Google Play real-time developer notification" : "\(vendor.displayName) webhook event"
        return .usage("\(Terminal.escape(file)): \(what), applied by `entitlement ingest --from DIR` or `entitlement webhook`, not imported",
                      hint: vendor == .googleplay
                        ? "A notification names only a purchase token: import the purchase (purchases.subscriptionsv2.get) instead; see docs/ingest.md."
                        : "Save the body in a folder and run `entitlement ingest --from DIR`; see docs/ingest.md.")
    }
}
