/// A vendor whose webhook events the store takes (`entitlement webhook VENDOR`).
///
/// Every name the issue lists is here, so the spool, the ledger and the CGI answers know all
/// six; a vendor is served once `VendorTable` has an adapter for it.
package enum Vendor: String, CaseIterable, Sendable, Comparable {
    case appstore, revenuecat, adapty, qonversion, stripe, googleplay

    /// The name people read: `App Store`, `RevenueCat`, ….
    package var displayName: String {
        switch self {
        case .appstore: return "App Store"
        case .revenuecat: return "RevenueCat"
        case .adapty: return "Adapty"
        case .qonversion: return "Qonversion"
        case .stripe: return "Stripe"
        case .googleplay: return "Google Play"
        }
    }

    package static func < (lhs: Vendor, rhs: Vendor) -> Bool { lhs.rawValue < rhs.rawValue }
}
