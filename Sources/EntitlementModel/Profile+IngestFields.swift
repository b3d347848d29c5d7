import FoundationEssentials
import EntitlementBasics
import EntitlementJSON

/// Typed reads of the profile fields live ingest keeps in `raw` (`IngestRecordKeys`): what
/// `check`, `status`, the alias index and `verify` need, without knowing the ingest module.
extension Profile {
    /// One member of `raw`, without parsing the others (`RawObject.member`): a read of one
    /// field of a profile read from disk costs a walk over its top level, not a tree of it.
    package func rawMember(_ key: String) -> JSONValue? { rawStorage.member(key) }

    /// Sets one member of `raw` without parsing the members `json` writes from the model
    /// (transactions, renewal info, custom attributes): what ingest notes on each profile.
    /// Afterwards `raw` holds `null` for those three (the model's properties are what counts).
    package mutating func setRawMember(_ key: String, _ value: JSONValue) {
        var object = rawStorage.object(replacing: Self.rewrittenKeys)
        object[key] = value
        rawStorage = RawObject(object)
    }

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
