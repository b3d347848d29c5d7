import FoundationEssentials
import EntitlementModel

/// The vendors `refresh` asks, each from its secrets-file entry (docs/security.md): which
/// credential each needs, its default address, and its default `--rate`.
package enum RefreshSources {
    /// What the command line adds to the secrets: `--stripe-customer`, `--purchase-token`, the clock.
    package struct Options: Sendable {
        package var stripeCustomer: String?
        package var purchaseTokens: [String] = []
        /// Wall-clock seconds since 1970 (a Google assertion's `iat`).
        package var wallClock: @Sendable () -> Int

        package init(stripeCustomer: String? = nil, purchaseTokens: [String] = [], wallClock: @escaping @Sendable () -> Int) {
            self.stripeCustomer = stripeCustomer
            self.purchaseTokens = purchaseTokens
            self.wallClock = wallClock
        }
    }

    /// Requests a second `refresh --stdin` makes by default: under each vendor's published limit
    /// (Stripe 100 reads/s live, 25 in test mode; Google Play 3,000 queries a minute; RevenueCat
    /// and Adapty a few hundred a minute), leaving room for the app's own calls.
    package static func defaultRate(_ vendor: Vendor) -> Double {
        switch vendor {
        case .stripe: return 20
        case .googleplay: return 25
        case .revenuecat, .adapty, .appstore, .qonversion: return 5
        }
    }

    /// The vendor's source, its credentials read and checked before anything is asked
    /// (exit 2 for a missing key or a refused key file).
    package static func make(_ vendor: Vendor, secrets: SecretsFile?, secretsPath: String, client: VendorAPIClient, apiBase: String?,
                             options: Options) throws(EntitlementError) -> any RefreshSource {
        switch vendor {
        case .revenuecat:
            return RevenueCatSource(client: client, base: apiBase, apiKey: try apiKey(.revenuecat, secrets, secretsPath))
        case .stripe:
            return StripeSource(client: client, base: apiBase, apiKey: try apiKey(.stripe, secrets, secretsPath), customer: options.stripeCustomer)
        case .adapty:
            return AdaptySource(client: client, base: apiBase, apiKey: try apiKey(.adapty, secrets, secretsPath))
        case .googleplay:
            let google = try GooglePlayAPI(secrets: secrets, secretsPath: secretsPath, client: client, wallClock: options.wallClock)
            return GooglePlaySource(client: client, base: apiBase, packageName: google.packageName, token: google.token, extraTokens: options.purchaseTokens)
        case .appstore, .qonversion:
            throw .usage("refresh does not ask \(vendor.displayName)'s API.", command: "refresh")
        }
    }

    /// `vendor.api_key`, usable as a header value.
    package static func apiKey(_ vendor: Vendor, _ secrets: SecretsFile?, _ path: String) throws(EntitlementError) -> String {
        try string(vendor, "api_key", secrets, path)
    }

    /// `vendor.key`, set and usable as a header value, else exit 2 naming it.
    package static func string(_ vendor: Vendor, _ key: String, _ secrets: SecretsFile?, _ path: String) throws(EntitlementError) -> String {
        let name = "\(vendor.rawValue).\(key)"
        guard let value = secrets?.string(vendor, key) else { throw .vendorAPI(.missingKey(key: name, file: path)) }
        guard VendorAPIClient.isHeaderSafe(value) else { throw .vendorAPI(.unusableKey(key: name, file: path)) }
        return value
    }
}
