import EntitlementJSON
import EntitlementImport

/// A document `import` reads (a RevenueCat subscriber response, an Adapty profile, a Google
/// Play purchase …) sent where an event belongs: `ingest` and `webhook` name it instead of
/// reporting the vendor's first missing event field (docs/import.md, section 17).
enum DocumentBody {
    /// "RevenueCat subscriber document, not an event: …", nil for any other body.
    static func refusal(_ body: [UInt8]) -> String? {
        guard let value = try? JSONParser.parse(body, allowTrailingCommas: true), let document = FormatDetector.documentName(value) else {
            return nil
        }
        return "\(document) document, not an event: import it with `entitlement import`"
    }
}
