import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Documents of vendor APIs that this version recognises but does not import, refused by
/// name rather than as an "unknown document shape" (docs/import.md,
/// section 14): RevenueCat's API v2 objects and Adapty's server-side API v2 profile.
enum UnsupportedShapes {
    /// RevenueCat API v2 `object` values of customer data.
    static let revenueCatObjects: Set<String> = ["customer", "subscription", "purchase", "entitlement", "customer.entitlement"]

    /// The refusal for a recognised but unsupported document, nil for any other document.
    /// With `--format`, only the named vendor's shapes are refused here: `--format stripe`
    /// reads a Stripe subscription that looks like a RevenueCat v2 object.
    static func refusal(_ value: JSONValue, file: String, format: Vendor? = nil) -> EntitlementError? {
        let name = Terminal.escape(file)
        if format == nil, let object = value.objectValue, object["object"]?.stringValue == "subscription",
           !isStripe(object), !isRevenueCat(object) {
            return .usage("\(name): ambiguous document: \"object\": \"subscription\" is a Stripe subscription or a RevenueCat API v2 subscription object, "
                          + "and its other fields do not say which",
                          hint: "Pass --format stripe (or --format revenuecat); see docs/import.md, section 2.2.")
        }
        if format == nil || format == .revenuecat, let kind = revenueCatV2(value, named: format == .revenuecat) {
            return .usage("\(name): RevenueCat API v2 \(kind) is not imported by this version",
                          hint: "Import RevenueCat's API v1 subscriber response instead (GET /v1/subscribers/{app_user_id}); see docs/import.md, section 14.")
        }
        if format == nil || format == .adapty, isAdaptyV2(value) {
            return .usage("\(name): Adapty server-side API v2 profile (access_levels as an array) is not imported by this version",
                          hint: "Import the API v1 profile (paid_access_levels as an object); see docs/import.md, section 14.")
        }
        return nil
    }

    /// `customer`, `subscription`, `purchase` or a `list` of them: API v2 marks every object with `object`.
    /// A lone `subscription` is RevenueCat's only with a field of its own, or `--format revenuecat` (`named`).
    private static func revenueCatV2(_ value: JSONValue, named: Bool) -> String? {
        guard let object = value.objectValue, let kind = object["object"]?.stringValue, !isStripe(object) else { return nil }
        if kind == "subscription", !named, !isRevenueCat(object) { return nil }
        if revenueCatObjects.contains(kind) { return "\(kind) object" }
        guard kind == "list", case .array(let items)? = object["items"] else { return nil }
        let kinds = Set(items.compactMap { $0.objectValue?["object"]?.stringValue })
        guard let first = kinds.sorted().first, kinds.isSubset(of: revenueCatObjects) else { return nil }
        return "list of \(first) objects"
    }

    /// Stripe marks its objects with `object` too (`"subscription"`). Stripe's carry `livemode`
    /// (all but the oldest), a Stripe `list` of `items`, a `plan` object (older versions) or
    /// Stripe's period fields; RevenueCat's have none of them.
    private static func isStripe(_ object: JSONObject) -> Bool {
        object["livemode"] != nil || object["items"]?.objectValue?["object"]?.stringValue == "list"
            || object["plan"]?.objectValue?["object"]?.stringValue == "plan"
            || ["current_period_start", "cancel_at_period_end", "trial_end"].contains { object[$0] != nil }
    }

    /// Fields only RevenueCat's API v2 subscription has.
    private static func isRevenueCat(_ object: JSONObject) -> Bool {
        ["customer_id", "gives_access", "current_period_starts_at", "store_subscription_identifier"].contains { object[$0] != nil }
    }

    /// A profile (or `{"data": profile}`) whose `access_levels` is an array, as API v2 returns it.
    private static func isAdaptyV2(_ value: JSONValue) -> Bool {
        guard let top = value.objectValue else { return false }
        let profile = top["data"]?.objectValue ?? top
        guard case .array? = profile["access_levels"] else { return false }
        return profile["profile_id"] != nil || profile["customer_user_id"] != nil
    }
}
