import EntitlementBasics
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
    package static func extend(_ configuration: ProductConfiguration, with mappings: [ProductMapping],
                               counter: WorkCounter? = nil) -> (ProductConfiguration, [ConfigAddition]) {
        var configuration = configuration
        var added: [ConfigAddition] = []
        guard !mappings.isEmpty else { return (configuration, added) }
        // Positions by id (the first of an id, as `firstIndex` found it) and each one's products:
        // one lookup per mapping instead of a scan of 8,000 entitlements.
        var positions: [String: Int] = [:]
        counter.add(configuration.entitlements.count + mappings.count)
        for (position, entitlement) in configuration.entitlements.enumerated() where positions[entitlement.id] == nil {
            positions[entitlement.id] = position
        }
        var products: [Int: Set<String>] = [:]
        for mapping in mappings {
            if let index = positions[mapping.entitlement] {
                if products[index] == nil { products[index] = Set(configuration.entitlements[index].products) }
                guard products[index]?.insert(mapping.productID).inserted == true else { continue }
                configuration.entitlements[index].products.append(mapping.productID)
                added.append(ConfigAddition(entitlement: mapping.entitlement, productID: mapping.productID, createdEntitlement: false))
            } else {
                positions[mapping.entitlement] = configuration.entitlements.count
                products[configuration.entitlements.count] = [mapping.productID]
                configuration.entitlements.append(ProductConfiguration.Entitlement(id: mapping.entitlement, products: [mapping.productID]))
                added.append(ConfigAddition(entitlement: mapping.entitlement, productID: mapping.productID, createdEntitlement: true))
            }
        }
        return (configuration, added)
    }
}
