import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The three-way merge of `config.json`: a union of entitlements and of product
/// mappings. A change that cannot be combined meaningfully is reported, never resolved.
///
/// - Entitlements: one added on either side is kept; one removed on a side and left
///   unchanged on the other is removed; removed on one side but changed on the other
///   is a conflict. Order: see `KeyOrder` (base order, then new ids sorted by bytes).
/// - Products of an entitlement: a set merge (added on either side: kept; removed on
///   either side: removed), in `KeyOrder` order.
/// - A product that both sides re-mapped differently, where at least one side took it
///   away from an entitlement (a move, not two additions), is a conflict.
/// - Any other value (`description`, unknown fields) changed differently on both
///   sides is a conflict.
enum ConfigMerge {
    typealias K = ProductConfiguration.CodingKeys

    static func merge(base: ProductConfiguration?, ours: ProductConfiguration, theirs: ProductConfiguration) throws(MergeFailure) -> ProductConfiguration {
        let left = ours.json.objectValue!, right = theirs.json.objectValue!
        if JSONOrder.same(.object(left), .object(right)) { return ours }
        let origin = base?.json.objectValue
        let key = K.entitlements.rawValue
        var merger = ValueMerge(policy: .report)
        var merged = merger.mergeObjects(base: origin, ours: left, theirs: right, path: "", skipping: [key])
        merged[key] = .object(entitlements(base: origin?[key]?.objectValue, ours: left[key]!.objectValue!, theirs: right[key]!.objectValue!, merger: &merger))
        var conflicts = merger.conflicts + movedProducts(base: base, ours: ours, theirs: theirs)
        if conflicts.isEmpty {
            do {
                return try ProductConfiguration(json: .object(merged))
            } catch {
                conflicts.append(MergeConflict(field: error.path, message: "the merged value would be invalid: \(error.message)"))
            }
        }
        throw .conflicts(conflicts)
    }

    private static func entitlements(base: JSONObject?, ours: JSONObject, theirs: JSONObject, merger: inout ValueMerge) -> JSONObject {
        var merged: [(String, JSONValue)] = []
        for id in KeyOrder.union(base: base?.keys, ours: ours.keys, theirs: theirs.keys) {
            let path = "\(K.entitlements.rawValue).\(id)"
            let origin = base?[id]
            switch (ours[id]?.objectValue, theirs[id]?.objectValue) {
            case (let left?, let right?):
                var entry = merger.mergeObjects(base: origin?.objectValue, ours: left, theirs: right, path: path, skipping: [K.products.rawValue])
                entry[K.products.rawValue] = .array(products(base: origin?.objectValue, ours: left, theirs: right).map(JSONValue.string))
                merged.append((id, .object(entry)))
            case (let kept?, nil), (nil, let kept?):
                guard let origin else { merged.append((id, .object(kept))); continue }  // added on one side
                if !JSONOrder.same(origin, .object(kept)) {
                    merger.conflict(path: path, ours: ours[id], theirs: theirs[id]).map { merged.append((id, $0)) }
                }
            case (nil, nil):
                continue
            }
        }
        return KeyOrder.arrange(JSONObject(merged), base: base?.keys, ours: ours.keys, theirs: theirs.keys)
    }

    private static func products(base: JSONObject?, ours: JSONObject, theirs: JSONObject) -> [String] {
        func list(_ object: JSONObject?) -> [String] {
            guard case .array(let items)? = object?[K.products.rawValue] else { return [] }
            return items.compactMap(\.stringValue)
        }
        let origin = list(base), left = list(ours), right = list(theirs)
        let removed = Set(origin.map { Array($0.utf8) }).subtracting(Set(left.map { Array($0.utf8) }).intersection(right.map { Array($0.utf8) }))
        var seen = Set<[UInt8]>()
        let kept = (left + right).filter { let bytes = Array($0.utf8); return !removed.contains(bytes) && seen.insert(bytes).inserted }
        return KeyOrder.arrange(kept, base: base == nil ? nil : origin, ours: left, theirs: right)
    }

    /// Products both sides re-mapped differently, where one side took a mapping away.
    private static func movedProducts(base: ProductConfiguration?, ours: ProductConfiguration, theirs: ProductConfiguration) -> [MergeConflict] {
        func mapping(_ configuration: ProductConfiguration?) -> [String: Set<String>] {
            var map: [String: Set<String>] = [:]
            for entitlement in configuration?.entitlements ?? [] {
                for product in entitlement.products { map[product, default: []].insert(entitlement.id) }
            }
            return map
        }
        let origin = mapping(base), left = mapping(ours), right = mapping(theirs)
        var conflicts: [MergeConflict] = []
        for product in Set(left.keys).union(right.keys).sorted(by: { JSONOrder.bytes($0, $1) < 0 }) {
            let was = origin[product] ?? [], a = left[product] ?? [], b = right[product] ?? []
            guard a != was, b != was, a != b, !was.subtracting(a).isEmpty || !was.subtracting(b).isEmpty else { continue }
            func names(_ ids: Set<String>) -> String { ids.isEmpty ? "none" : ids.sorted().map { Terminal.escape($0) }.joined(separator: ", ") }
            conflicts.append(MergeConflict(field: "\(K.entitlements.rawValue).*.\(K.products.rawValue)",
                                           message: "product '\(Terminal.escape(product))' was mapped differently on both sides (base: \(names(was)); ours: \(names(a)); theirs: \(names(b)))"))
        }
        return conflicts
    }
}
