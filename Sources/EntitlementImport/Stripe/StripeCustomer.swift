import EntitlementJSON
import EntitlementModel

/// Which customer a Stripe subscription belongs to: `customer` (`cus_…`), or the value of the
/// subscription metadata key that config.json names, for apps whose user ids are their own:
///
///     "stripe": {"customer_metadata_key": "app_user_id"}
package enum StripeCustomer {
    static let configKey = "stripe"
    static let metadataKeyField = "customer_metadata_key"

    /// The metadata key config.json names, if any.
    package static func metadataKey(in configuration: ProductConfiguration?) -> String? {
        guard let settings = configuration?.raw[configKey]?.objectValue,
              case .string(let key)? = settings[metadataKeyField], !key.isEmpty else { return nil }
        return key
    }

    /// The document's user becomes the metadata value when the subscription has one.
    package static func useMetadata(_ key: String, in document: inout ImportDocument) {
        guard case .string(let id)? = document.stripeMetadata?[key], !id.isEmpty else { return }
        document.user = id
        document.userSource = .stripeMetadata
    }
}
