/// A vendor whose data the store takes: the one list of them.
///
/// `import --format`, `webhook VENDOR`, `ingest --vendor` and `refresh --vendor` take these
/// names; their help text and completions are derived from `allCases`, in this order. The
/// spool and the ledger key events by `rawValue`. Adding a vendor starts here
/// (ARCHITECTURE.md, "Where to look").
package enum Vendor: String, CaseIterable, Sendable, Comparable {
    case appstore, revenuecat, adapty, qonversion, googleplay, stripe

    /// The name people read: `App Store`, `RevenueCat`, ….
    package var displayName: String {
        switch self {
        case .appstore: return "App Store"
        case .revenuecat: return "RevenueCat"
        case .adapty: return "Adapty"
        case .qonversion: return "Qonversion"
        case .googleplay: return "Google Play"
        case .stripe: return "Stripe"
        }
    }

    /// Vendors sort by name (the spool's folders, `ingest --status`).
    package static func < (lhs: Vendor, rhs: Vendor) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `a, b or c`: the names of `vendors` as help text and messages list them.
    package static func phrase(_ vendors: [Vendor] = allCases, conjunction: String = "or") -> String {
        let names = vendors.map(\.rawValue)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}
