import EntitlementModel
import EntitlementRules

/// Keys of the `vendor.<format>` objects import writes (docs/import.md, section 7.3).
enum VendorObjectKey {
    static let transaction = "transaction"
    static let renewalInfo = "renewal_info"
    static let section = "section"
    static let productID = "product_id"
    static let object = "object"
    static let profileID = "profile_id"
    static let key = "key"
    static let storeTransaction = "store_transaction"
    static let entitlements = "entitlements"
}

/// Values import writes into our own fields.
package enum ImportValue {
    /// The store of a purchase whose vendor does not say where it was made.
    package static let unknownStore = Store(rawValue: "unknown")
    /// `revocation_reason` of a refund.
    package static let refunded = "refunded"
    /// `revocation_reason` of Apple's other revocations (code 0).
    static let otherRevocation = "other"
}

/// A vendor's own verdict, in the words the summary uses.
enum VendorState {
    static let active = "active"
    static let inactive = "inactive"
    static let expired = "expired"
    static let gracePeriod = "grace_period"
    static let unknown = "unknown"

    /// Our states that agree with a vendor's "no access".
    static let noAccess: [AccessState] = [.expired, .billingRetry, .revoked, .scheduled, .never]
}
