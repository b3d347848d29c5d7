import EntitlementJSON
/// Which products unlock which entitlements: the store's `config.json`.
package struct ProductConfiguration: Equatable, Sendable {
    /// One configured entitlement (access level).
    package struct Entitlement: Equatable, Sendable {
        package var id: String
        package var description: String?
        package var products: [String]
        package var raw: JSONObject

        package init(id: String, description: String? = nil, products: [String] = []) {
            self.id = id
            self.description = description
            self.products = products
            self.raw = JSONObject()
        }
    }

    /// Entitlements in the order of the file.
    package var entitlements: [Entitlement] {
        didSet { lookup = EntitlementLookup() }
    }
    /// `entitlement(_:)`'s table for large configurations; replaced (not rebuilt) on every change.
    private var lookup = EntitlementLookup()
    /// Where profile files go (`profile_layout`; absent means flat).
    package var profileLayout: ProfileLayout = .flat
    /// `app_store`: the app whose signed data this store accepts (read; kept in `raw` when written).
    package var appStore = AppStoreIdentity()
    package var raw: JSONObject

    package enum CodingKeys: String {
        case schemaVersion = "schema_version"
        case entitlements
        case products
        case description
    }

    package init(entitlements: [Entitlement]) {
        self.entitlements = entitlements
        self.raw = JSONObject()
    }

    package var entitlementIDs: [String] { entitlements.map(\.id) }

    /// The first entitlement named `id`: a scan of a small configuration, a table lookup of a large one.
    package func entitlement(_ id: String) -> Entitlement? { lookup.position(of: id, in: entitlements).map { entitlements[$0] } }

    /// True when `productID` unlocks `entitlementID`.
    package func product(_ productID: String, unlocks entitlementID: String) -> Bool {
        entitlement(entitlementID)?.products.contains(productID) ?? false
    }

    /// The entitlements `productID` unlocks, in configuration order.
    package func entitlements(unlockedBy productID: String) -> [String] {
        entitlements.filter { $0.products.contains(productID) }.map(\.id)
    }
}

extension ProductConfiguration {
    package init(json value: JSONValue) throws(FieldError) {
        typealias K = CodingKeys
        let reader = try FieldReader(value, path: "")
        try SchemaVersion.check(reader)
        guard let map = try reader.optionalObject(K.entitlements.rawValue) else {
            throw FieldError(path: K.entitlements.rawValue, message: "required field is missing")
        }
        var entitlements: [Entitlement] = []
        for (id, item) in map.object.entries {
            let path = map.childPath(id)
            guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw FieldError(path: path, message: "an entitlement id must be non-empty text without control characters")
            }
            let entry = try FieldReader(item, path: path)
            var products: [String] = []
            for (index, product) in (try entry.optionalArray(K.products.rawValue) ?? []).enumerated() {
                guard case .string(let productID) = product, !productID.isEmpty else {
                    throw FieldError(path: "\(entry.childPath(K.products.rawValue))[\(index)]", message: "expected a product id string, found \(product.kindDescription)")
                }
                products.append(productID)
            }
            var entitlement = Entitlement(id: id, description: try entry.optionalString(K.description.rawValue), products: products)
            entitlement.raw = entry.object
            entitlements.append(entitlement)
        }
        self.entitlements = entitlements
        if let text = try reader.optionalString(ProfileLayout.configKey) {
            guard let layout = ProfileLayout(rawValue: text) else {
                throw FieldError(path: ProfileLayout.configKey, message: "unknown layout '\(text)'; this version knows flat and fanout")
            }
            profileLayout = layout
        }
        appStore = try AppStoreIdentity(config: reader)
        self.raw = reader.object
    }

    package var json: JSONValue {
        typealias K = CodingKeys
        var object = raw
        object[K.schemaVersion.rawValue] = .int(SchemaVersion.current)
        // Built from a list (a repeated id keeps its first place and last value, as setting
        // did): setting 8,000 keys one by one searched the object each time.
        let entries = entitlements.map { entitlement -> (String, JSONValue) in
            var entry = entitlement.raw
            entry.mergeString(K.description.rawValue, entitlement.description)
            entry[K.products.rawValue] = .array(entitlement.products.map(JSONValue.string))
            return (entitlement.id, .object(entry))
        }
        object[K.entitlements.rawValue] = .object(JSONObject(entries))
        object[ProfileLayout.configKey] = profileLayout == .flat ? nil : .string(profileLayout.rawValue)
        return .object(object)
    }
}
