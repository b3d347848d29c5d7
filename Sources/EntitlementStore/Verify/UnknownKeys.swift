import EntitlementJSON
import EntitlementModel

/// `verify`'s check that every key of a store file is a documented one (docs/store-format.md).
///
/// The readers keep an unknown key and ignore it, so a misspelt one silently changes what a
/// file means: `"transaction": […]` leaves a profile with no purchases, and
/// `grace_period_expire_at` turns a grace period into `expired`. Every unknown key is
/// reported, with the nearest documented key when one is close; inside a `vendor` object,
/// where `import` keeps each vendor's own data, any key is allowed.
enum UnknownKeys {
    /// The keys of a profile object.
    /// Besides the documented fields: a team merge's `profile_id_aliases` (`ProfileIdentity`), and
    /// what live ingest records (`IngestRecordKeys`).
    static let profile = ["schema_version", "profile_id", "customer_user_id", "created_at", "custom_attributes", "transactions", "renewal_info",
                          ProfileIdentity.aliasesKey, IngestRecordKeys.lastEvent, IngestRecordKeys.aliases, IngestRecordKeys.transfers]
    /// The keys of one `renewal_info` entry: the model's own, `vendor`, and ingest's stamp.
    static let renewalInfo = RenewalInfo.knownKeys + ["vendor", IngestRecordKeys.appliedEvent]
    /// The keys of `config.json`.
    static let configuration = ["schema_version", "entitlements", ProfileLayout.configKey, "app_store"]
    /// The keys of `config.json`'s `app_store` object (`AppStoreIdentity`).
    static let appStore = ["bundle_id", "app_apple_id", "environment"]
    /// The keys of one entitlement of `config.json`.
    static let entitlement = ["products", "description"]

    /// One problem per key of `object` not in `known`, sorted by key; `prefix` is the
    /// object's field path (nil at the top of a file).
    static func problems(_ object: JSONObject, known: [String], prefix: String?) -> [(field: String, message: String)] {
        object.keys.filter { !known.contains($0) }.sorted().map { key in
            let near = TransactionTypos.nearest(key, in: known).map { "; did you mean '\($0)'?" } ?? ""
            return (prefix.map { "\($0).\(key)" } ?? key, "unknown field '\(key)'\(near) (an unknown field is kept but ignored)")
        }
    }

    /// A profile's unknown keys at the top, in `renewal_info` entries, and renewal entries
    /// whose key is the `original_transaction_id` of no transaction (their state applies to nothing).
    /// Transactions are checked by `TransactionTypos`.
    static func profileProblems(_ object: JSONObject) -> [(field: String, message: String)] {
        var found = problems(object, known: profile, prefix: nil)
        guard case .object(let renewals)? = object["renewal_info"] else { return found }
        var subscriptions = Set<String>()
        if case .array(let items)? = object["transactions"] {
            for case .object(let transaction) in items {
                if let id = transaction["original_transaction_id"]?.stringValue ?? transaction["transaction_id"]?.stringValue { subscriptions.insert(id) }
            }
        }
        for (key, value) in renewals.entries {
            let field = "renewal_info.\(key)"
            if case .object(let entry) = value { found += problems(entry, known: renewalInfo, prefix: field) }
            if !subscriptions.contains(key) {
                found.append((field, "renewal info for '\(key)', which is the original_transaction_id of no transaction: it applies to nothing"))
            }
        }
        return found
    }

    /// `config.json`'s unknown keys, at the top and in each entitlement.
    static func configurationProblems(_ object: JSONObject) -> [(field: String, message: String)] {
        var found = problems(object, known: configuration, prefix: nil)
        if case .object(let identity)? = object["app_store"] { found += problems(identity, known: appStore, prefix: "app_store") }
        if case .object(let entitlements)? = object["entitlements"] {
            for (id, value) in entitlements.entries {
                if case .object(let entry) = value { found += problems(entry, known: entitlement, prefix: "entitlements.\(id)") }
            }
        }
        return found
    }
}
