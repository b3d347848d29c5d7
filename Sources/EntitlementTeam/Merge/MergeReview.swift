import EntitlementJSON

/// Something a merge decided that leaves a customer with less than one side meant: shown
/// by `sync` (and by the driver under a plain `git pull`) as something for a person to
/// review, never applied silently (docs/team-store.md, "Merge rules").
package struct MergeReview: Equatable, Sendable {
    package enum Kind: String, Sendable {
        /// A stacked grant moved to start at its base's concurrent revocation.
        case stackedGrantMoved = "stacked_grant_moved"
        /// A grant voided because another grant had its idempotency key.
        case duplicateVoided = "duplicate_voided"
        /// The merged profile gives less access now than each side did.
        case lessAccess = "less_access"
    }

    package var kind: Kind
    package var customer: String
    package var entitlement: String
    /// The transaction concerned, when one is.
    package var transactionID: String?
    /// One line for a person, outside strings escaped by whoever prints it.
    package var message: String

    package var json: JSONValue {
        var object = JSONObject([("kind", .string(kind.rawValue)), ("customer_user_id", .string(customer)), ("entitlement", .string(entitlement))])
        object["transaction_id"] = transactionID.map(JSONValue.string) ?? .null
        object["message"] = .string(message)
        return .object(object)
    }

    package init(kind: Kind, customer: String, entitlement: String, transactionID: String?, message: String) {
        self.kind = kind
        self.customer = customer
        self.entitlement = entitlement
        self.transactionID = transactionID
        self.message = message
    }

    /// Reads one record written by `json` (one line of the review file); nil for anything else.
    package init?(json value: JSONValue) {
        guard let object = value.objectValue, let kind = object["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
              let customer = object["customer_user_id"]?.stringValue, let entitlement = object["entitlement"]?.stringValue,
              let message = object["message"]?.stringValue else { return nil }
        self.init(kind: kind, customer: customer, entitlement: entitlement, transactionID: object["transaction_id"]?.stringValue, message: message)
    }
}
