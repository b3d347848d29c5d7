import FoundationEssentials
import EntitlementJSON

/// A customer: ids, attributes, every transaction, and renewal info per subscription.
package struct Profile: Equatable, Sendable {
    package var profileID: String?
    package var customerUserID: String
    package var createdAt: Date?
    /// Attribute values are strings or numbers, as in Adapty's profile.
    package var customAttributes: JSONObject {
        get { customAttributesStorage.object }
        set { customAttributesStorage = RawObject(newValue) }
    }
    var customAttributesStorage: RawObject
    package var transactions: [Transaction]
    /// Keyed by `original_transaction_id`.
    package var renewalInfo: [String: RenewalInfo]
    /// The object as read, with fields this version does not know.
    package var raw: JSONObject {
        get { rawStorage.object }
        set { rawStorage = RawObject(newValue) }
    }
    /// `raw`, parsed only when asked for (see `RawObject`).
    var rawStorage: RawObject

    package enum CodingKeys: String {
        case schemaVersion = "schema_version"
        case profileID = "profile_id"
        case customerUserID = "customer_user_id"
        case createdAt = "created_at"
        case customAttributes = "custom_attributes"
        case transactions
        case renewalInfo = "renewal_info"
    }

    package init(profileID: String? = nil, customerUserID: String, createdAt: Date? = nil) {
        self.profileID = profileID
        self.customerUserID = customerUserID
        self.createdAt = createdAt
        self.customAttributesStorage = RawObject()
        self.transactions = []
        self.renewalInfo = [:]
        self.rawStorage = RawObject()
    }

    /// Renewal info of the subscription `transaction` belongs to.
    package func renewal(for transaction: Transaction) -> RenewalInfo? {
        renewalInfo[transaction.originalTransactionID]
    }

    /// Fields this version does not know, as read: compared as a value.
    var unknownFields: JSONObject {
        let known = Set([CodingKeys.schemaVersion, .profileID, .customerUserID, .createdAt, .customAttributes, .transactions, .renewalInfo].map(\.rawValue))
        return JSONObject(raw.entries.filter { !known.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// Field by field, transactions in order; unknown fields compare as a value.
    package static func == (lhs: Profile, rhs: Profile) -> Bool {
        lhs.profileID == rhs.profileID && lhs.customerUserID == rhs.customerUserID && lhs.createdAt == rhs.createdAt
            && lhs.customAttributes == rhs.customAttributes && lhs.transactions == rhs.transactions
            && lhs.renewalInfo == rhs.renewalInfo && lhs.unknownFields == rhs.unknownFields
    }

    /// The transaction with this id, if any.
    package func transaction(id: String) -> Transaction? {
        transactions.first { $0.transactionID == id }
    }
}

extension Profile {
    /// Reads a profile from its stored document.
    package init(json value: JSONValue) throws(FieldError) {
        typealias K = CodingKeys
        let reader = try FieldReader(value, path: "")
        try SchemaVersion.check(reader)
        customerUserID = try reader.identifier(K.customerUserID.rawValue)
        profileID = try reader.optionalString(K.profileID.rawValue)
        createdAt = try reader.optionalDate(K.createdAt.rawValue)
        let customAttributes = try reader.optionalObject(K.customAttributes.rawValue)?.object ?? JSONObject()
        customAttributesStorage = RawObject(customAttributes)
        for (key, attribute) in customAttributes.entries {
            switch attribute {
            case .string, .number, .null: continue
            default:
                throw FieldError(path: "custom_attributes.\(key)", message: "expected a string or a number, found \(attribute.kindDescription)")
            }
        }
        var transactions: [Transaction] = []
        let items = try reader.optionalArray(K.transactions.rawValue) ?? []
        transactions.reserveCapacity(items.count)
        var seen: [String: Int] = [:]  // "store transaction_id" → index: ids are unique per store
        for (index, item) in items.enumerated() {
            let transaction = try Transaction(json: FieldReader(item, path: "transactions[\(index)]"))
            if let first = seen.updateValue(index, forKey: transaction.store.rawValue + " " + transaction.transactionID) {
                throw FieldError(path: "transactions[\(index)].transaction_id",
                                 message: "'\(transaction.transactionID)' of store \(transaction.store.rawValue) repeats transactions[\(first)]")
            }
            transactions.append(transaction)
        }
        self.transactions = transactions
        var renewals: [String: RenewalInfo] = [:]
        if let infos = try reader.optionalObject(K.renewalInfo.rawValue) {
            for (key, item) in infos.object.entries {
                renewals[key] = try RenewalInfo(json: FieldReader(item, path: infos.childPath(key)))
            }
        }
        renewalInfo = renewals
        rawStorage = RawObject(reader.object)
    }

    /// The members `json` sets whatever `raw` holds.
    static let rewrittenKeys: Set<String> = [CodingKeys.customAttributes.rawValue, CodingKeys.transactions.rawValue, CodingKeys.renewalInfo.rawValue]

    /// The document to store.
    package var json: JSONValue {
        typealias K = CodingKeys
        // What is set below is not parsed from the file only to be replaced.
        var object = rawStorage.object(replacing: Self.rewrittenKeys)
        object[K.schemaVersion.rawValue] = .int(SchemaVersion.current)
        object.mergeString(K.profileID.rawValue, profileID)
        object[K.customerUserID.rawValue] = .string(customerUserID)
        object.mergeDate(K.createdAt.rawValue, createdAt)
        object[K.customAttributes.rawValue] = .object(customAttributes)
        object[K.transactions.rawValue] = .array(transactions.map(\.json))
        object[K.renewalInfo.rawValue] = .object(JSONObject(renewalInfo.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }))
        return .object(object)
    }
}
