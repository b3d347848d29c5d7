import FoundationEssentials
import EntitlementBasics
import EntitlementJSON

/// Typed reads of the profile fields live ingest keeps in `raw` (`IngestRecordKeys`): what
/// `check`, `status`, the alias index and `verify` need, without knowing the ingest module.
extension Profile {
    /// `last_event.at`: when the newest event applied to this customer happened; nil when
    /// no event was ever applied (a profile made by `grant` or `import` only).
    package var lastEventAt: Date? {
        rawStorage.member(IngestRecordKeys.lastEvent)?.objectValue?["at"]?.stringValue.flatMap(ISODate.parse)
    }

    /// `aliases`: the customer's other ids (RevenueCat `aliases`, `original_app_user_id`),
    /// without empty strings and without the customer's own id.
    package var customerAliases: [String] {
        guard case .array(let items)? = rawStorage.member(IngestRecordKeys.aliases) else { return [] }
        return items.compactMap(\.stringValue).filter { !$0.isEmpty && !$0.utf8.elementsEqual(customerUserID.utf8) }
    }
}
