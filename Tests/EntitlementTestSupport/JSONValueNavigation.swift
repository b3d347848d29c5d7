import Foundation
import EntitlementJSON

/// Store snapshots are equal when every file has the same bytes and modification time.
package func sameFiles(_ a: [String: (Data, Date)], _ b: [String: (Data, Date)]) -> Bool {
    a.count == b.count && a.allSatisfy { key, value in b[key].map { $0.0 == value.0 && $0.1 == value.1 } ?? false }
}

extension JSONValue {
    /// Navigates objects in tests: `value["documents"]?[0]?["user"]`.
    package subscript(key: String) -> JSONValue? { objectValue?[key] }

    package subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    package var arrayValue: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }

    package var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}

/// One import document in the `--json` summary.
package struct DocumentSummary {
    package let value: JSONValue

    package func count(_ section: String, _ change: String) -> Int { value[section]?[change]?.arrayValue.count ?? -1 }
    package var added: Int { count("transactions", "added") }
    package var updated: Int { count("transactions", "updated") }
    package var unchanged: Int { count("transactions", "unchanged") }
    package var renewalsAdded: Int { count("renewal_info", "added") }
    package var renewalsUpdated: Int { count("renewal_info", "updated") }

    /// The verdict row for `entitlement` (or an App Store subject).
    /// The verdict row for an entitlement (or subject); "-" finds the row with no entitlement.
    package func verdict(_ entitlement: String) -> JSONValue? {
        value["verdicts"]?.arrayValue.first { row in
            if entitlement == "-" { return row["entitlement"] == .null }
            return row["entitlement"]?.stringValue == entitlement || row["subject"]?.stringValue == entitlement
        }
    }

    package var configAdded: [String] {
        (value["config_added"]?.arrayValue ?? []).compactMap { item in
            guard let entitlement = item["entitlement"]?.stringValue, let product = item["product_id"]?.stringValue else { return nil }
            return "\(entitlement) += \(product)"
        }
    }
}

extension JSONValue {
    /// `documents[index]` of an `import --json` summary.
    package func document(_ index: Int = 0) -> DocumentSummary { DocumentSummary(value: self["documents"]?[index] ?? .null) }
}
