import EntitlementBasics
import EntitlementModel

/// The warnings `import` gives about the configuration (docs/import.md,
/// section 7.5): a change it did not make for want of `--update-config`, and a purchase of
/// a product that no entitlement maps, which would otherwise give no access, silently.
package enum ImportNotices {
    package static func configurationNotChanged(_ addition: ConfigAddition) -> String {
        let what = addition.createdEntitlement ? "new entitlement \(Terminal.escape(addition.entitlement)) with product" : "product"
        return "config.json not changed: the document maps \(what) \(Terminal.escape(addition.productID)) to "
            + "\(Terminal.escape(addition.entitlement)) (entitlements.\(Terminal.escape(addition.entitlement)).products); run again with --update-config to add it"
    }

    /// The same for `refresh`, which never changes config.json and has no `--update-config`:
    /// what works is adding the product by hand, then refreshing again.
    package static func configurationNotChangedByRefresh(_ addition: ConfigAddition) -> String {
        let what = addition.createdEntitlement ? "new entitlement \(Terminal.escape(addition.entitlement)) with product" : "product"
        return "config.json not changed: the answer maps \(what) \(Terminal.escape(addition.productID)) to "
            + "\(Terminal.escape(addition.entitlement)); add \"\(Terminal.escape(addition.productID))\" to "
            + "entitlements.\(Terminal.escape(addition.entitlement)).products in config.json, then run refresh again"
    }

    package static func unmappedProduct(_ product: String) -> String {
        "product \(Terminal.escape(product)) unlocks no entitlement, so its purchases give no access; "
            + "add it to entitlements.<ENTITLEMENT>.products in config.json"
    }

    /// Every product some entitlement of a configuration lists, kept while the configuration's
    /// entitlements are the same: a store of 8,000 entitlements is not scanned per document.
    package struct MappedProducts {
        private var products: Set<String> = []
        private var source: [ProductConfiguration.Entitlement]?

        package init() {}

        package mutating func contains(_ product: String, in configuration: ProductConfiguration) -> Bool {
            if source != configuration.entitlements {
                products = Set(configuration.entitlements.lazy.flatMap(\.products))
                source = configuration.entitlements
            }
            return products.contains(product)
        }
    }

    /// The products of the document's purchases (not manual grants) that no entitlement of
    /// `configuration` lists, once each, in document order.
    package static func unmappedProducts(_ document: ImportDocument, configuration: ProductConfiguration, cache: inout MappedProducts) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for mapped in document.transactions where !mapped.transaction.isManualGrant {
            guard let product = mapped.transaction.productID, seen.insert(product).inserted else { continue }
            if !cache.contains(product, in: configuration) { result.append(product) }
        }
        return result
    }
}
