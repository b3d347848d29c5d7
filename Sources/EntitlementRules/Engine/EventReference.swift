import EntitlementJSON

/// A vendor event named by a store record (`applied_event`, a transfer's `event`): the key of
/// its audit record in the ledger (docs/store-format.md, "Ingested events").
package struct EventReference: Equatable, Sendable {
    package var vendor: String
    package var id: String

    package init(vendor: String, id: String) {
        self.vendor = vendor
        self.id = id
    }

    /// `{"vendor", "id"}`, as a transfer entry's `event` holds it.
    package var json: JSONValue { .object(JSONObject([("vendor", .string(vendor)), ("id", .string(id))])) }

    /// `{"vendor", "id", …}`; nil for anything else.
    package init?(_ value: JSONValue?) {
        guard let object = value?.objectValue, let vendor = object["vendor"]?.stringValue, let id = object["id"]?.stringValue else { return nil }
        self.vendor = vendor
        self.id = id
    }
}
