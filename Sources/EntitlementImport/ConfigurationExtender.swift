import EntitlementModel

/// A product added to the configuration by an import.
package struct ConfigAddition: Equatable, Sendable {
    package var entitlement: String
    package var productID: String
    /// True when the entitlement itself was new.
    package var createdEntitlement: Bool
}

/// Adds the (entitlement, product) pairs a document states to the configuration (section 7.5).
/// Nothing is ever removed; a pair already there is not reported.
package enum ConfigurationExtender {
    package static func extend(_ configuration: ProductConfiguration, with mappings: [ProductMapping]) -> (ProductConfiguration, [ConfigAddition]) {
        var configuration = configuration
        var added: [ConfigAddition] = []
        for mapping in mappings {
            if let index = configuration.entitlements.firstIndex(where: { $0.id == mapping.entitlement }) {
                guard !configuration.entitlements[index].products.contains(mapping.productID) else { continue }
                configuration.entitlements[index].products.append(mapping.productID)
                added.append(ConfigAddition(entitlement: mapping.entitlement, productID: mapping.productID, createdEntitlement: false))
            } else {
                configuration.entitlements.append(ProductConfiguration.Entitlement(id: mapping.entitlement, products: [mapping.productID]))
                added.append(ConfigAddition(entitlement: mapping.entitlement, productID: mapping.productID, createdEntitlement: true))
            }
        }
        return (configuration, added)
    }
}
