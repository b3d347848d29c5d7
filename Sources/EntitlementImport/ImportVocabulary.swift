import EntitlementModel
import EntitlementRules

/// Keys of the `vendor.<format>` objects import writes (docs/import.md, section 7.3).
package enum VendorObjectKey {
    package static let transaction = "transaction"
    package static let renewalInfo = "renewal_info"
    package static let section = "section"
    package static let productID = "product_id"
    package static let object = "object"
    package static let profileID = "profile_id"
    package static let key = "key"
    package static let storeTransaction = "store_transaction"
    package static let entitlements = "entitlements"
}

/// Values import writes into our own fields.
package enum ImportValue {
    /// The store of a purchase whose vendor does not say where it was made.
    package static let unknownStore = Store(rawValue: "unknown")
    /// `revocation_reason` of a refund.
    package static let refunded = "refunded"
    /// `revocation_reason` of Apple's other revocations (code 0).
    package static let otherRevocation = "other"
}

/// A vendor's own verdict, in the words the summary uses.
package enum VendorState {
    package static let active = "active"
    package static let inactive = "inactive"
    package static let expired = "expired"
    package static let gracePeriod = "grace_period"
    package static let unknown = "unknown"

    /// Our states that agree with a vendor's "no access".
    package static let noAccess: [AccessState] = [.expired, .billingRetry, .revoked, .scheduled, .never]
}
