import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// An Adapty server-side profile → an `ImportDocument` (docs/import.md, section 9.2). Pure.
/// Ingest maps an `access_level_updated` webhook through `accessLevel` too.
package enum AdaptyMapper {
    typealias K = AdaptyKey

    static func map(_ root: JSONValue, signature: DocumentSignature, path: String) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .adapty, shape: .profile)
        var top = try FieldReader.vendorObject(root, path: path)
        if signature == .adaptyEnvelope {
            guard let data = try top.vendorObject(K.data) else { throw top.vendorMissing(K.data) }
            top = data
            document.detail = "(in a \"data\" envelope)"
        }
        let profileID = try top.vendorID(K.profileID)
        document.vendorProfileID = profileID
        if let user = try top.vendorNonEmptyString(K.customerUserID) {
            document.user = user
            document.userSource = .customerUserID
        }
        var levels: [(id: String, period: AdaptyPeriod, reader: FieldReader)] = []
        for (id, value, entryPath) in try top.vendorMap(K.paidAccessLevels) {
            try ImportValidation.entitlementID(id, path: entryPath)
            let reader = try FieldReader.vendorObject(value, path: entryPath)
            levels.append((id, try AdaptyPeriod(reader, isAccessLevel: true), reader))
        }
        let subscriptionEntries = try top.vendorMap(K.subscriptions)
        for (key, value, entryPath) in subscriptionEntries {
            try ImportValidation.productID(key, path: entryPath)
            let reader = try FieldReader.vendorObject(value, path: entryPath)
            let period = try AdaptyPeriod(reader, isAccessLevel: false)
            let product = period.productID ?? key
            let vendor = vendorObject(profileID, K.subscriptions, key, reader)
            let id = period.transactionID ?? "adapty:\(product):\(VendorDate.idText(period.renewedAt ?? period.activatedAt))"
            let original = period.originalTransactionID ?? "adapty:\(product):\(VendorDate.idText(period.activatedAt))"
            var mapped = period.transaction(id: id, original: original, product: product, purchasedAt: period.renewedAt ?? period.activatedAt, vendor: vendor)
            mapped.originalIsSynthesized = period.originalTransactionID == nil
            document.transactions.append(mapped)
            if let renewal = period.renewal(original: original) { document.renewals.append(renewal) }
        }
        let nonSubscriptionEntries = try top.vendorMap(K.nonSubscriptions)
        for (key, value, entryPath) in nonSubscriptionEntries {
            try ImportValidation.productID(key, path: entryPath)
            guard case .array(let items) = value else { throw FieldError(path: entryPath, message: "expected an array, found \(ImportPath.show(value))") }
            for (index, item) in items.enumerated() {
                let reader = try FieldReader.vendorObject(item, path: ImportPath.index(entryPath, index))
                document.transactions.append(try nonSubscription(key, reader, profileID: profileID))
            }
        }
        let backed = Set(subscriptionEntries.map(\.key)).union(nonSubscriptionEntries.map(\.key))
        for level in levels {
            accessLevel(level.id, level.period, level.reader, backed: backed, profileID: profileID, into: &document)
        }
        if let attributes = try top.vendorObject(K.customAttributes) {
            for (key, value) in attributes.object.entries {
                switch value {
                case .null: continue
                case .bool(let flag): document.customAttributes.append((key, .int(flag ? 1 : 0)))
                case .string, .number: document.customAttributes.append((key, value))
                default:
                    throw FieldError(path: ImportPath.member(attributes.path, key), message: "expected a string, number or boolean, found \(ImportPath.show(value))")
                }
            }
        }
        return document
    }

    /// One `non_subscriptions[P][i]`.
    static func nonSubscription(_ key: String, _ r: FieldReader, profileID: String) throws(FieldError) -> MappedTransaction {
        let purchaseID = try r.vendorID(K.purchaseID)
        let purchasedAt = try r.vendorRequiredISODate(K.purchasedAt)
        let product = try r.vendorNonEmptyString(K.vendorProductID) ?? key
        let transactionID = try r.vendorNonEmptyString(K.vendorTransactionID)
        let originalID = try r.vendorNonEmptyString(K.vendorOriginalTransactionID)
        let store = try r.vendorString(K.store)
        let sandbox = try r.vendorBool(K.isSandbox)
        let oneTime = try r.vendorBool(K.isOneTime) ?? false
        let refund = try r.vendorBool(K.isRefund) ?? false
        let id = transactionID ?? "adapty:\(purchaseID)"
        var transaction = Transaction(transactionID: id, originalTransactionID: originalID ?? id, productID: product,
                                      store: store.map(Store.init) ?? ImportValue.unknownStore, type: oneTime ? .consumablePurchase : .nonConsumablePurchase,
                                      purchasedAt: purchasedAt, expiresAt: nil, environment: sandbox == true ? .sandbox : .production)
        if refund {
            transaction.revokedAt = purchasedAt
            transaction.revocationReason = ImportValue.refunded
        }
        var mapped = MappedTransaction(transaction, vendor: vendorObject(profileID, K.nonSubscriptions, key, r))
        mapped.givesEnvironment = sandbox != nil
        return mapped
    }

    /// An access level: always a statement; a mapping; a grant or snapshot when nothing backs it.
    package static func accessLevel(_ id: String, _ period: AdaptyPeriod, _ r: FieldReader, backed: Set<String>, profileID: String, into document: inout ImportDocument) {
        let isGrant = period.store == K.adaptyStore
        if !isGrant, let product = period.productID { document.noteMapping(id, product) }
        document.statements.append(statement(id, period))
        let vendor = vendorObject(profileID, K.paidAccessLevels, id, r)
        let activated = VendorDate.idText(period.activatedAt)
        if isGrant {
            let transactionID = "adapty:grant:\(id):\(activated)"
            var transaction = Transaction(transactionID: transactionID, productID: nil, store: .manual, type: .manualGrant,
                                          purchasedAt: period.activatedAt, expiresAt: period.isLifetime ? nil : period.expiresAt)
            transaction.entitlement = id
            transaction.grantedAt = period.activatedAt
            transaction.grantedBy = Vendor.adapty.rawValue
            transaction.reason = "Adapty access level grant"
            document.transactions.append(MappedTransaction(transaction, vendor: vendor))
            return
        }
        guard let product = period.productID else {
            document.warnings.append("access level \(Terminal.escape(id)) names no vendor_product_id; no transaction made for it")
            document.skipped.append("\(r.path): no vendor_product_id")
            return
        }
        guard !backed.contains(product) else { return }
        let transactionID = "adapty:\(id):\(activated)"
        document.transactions.append(period.transaction(id: transactionID, original: transactionID, product: product,
                                                        purchasedAt: period.activatedAt, vendor: vendor))
        if let renewal = period.renewal(original: transactionID) { document.renewals.append(renewal) }
    }

    /// Adapty's `is_active` / `is_in_grace_period` as a statement.
    static func statement(_ id: String, _ period: AdaptyPeriod) -> VendorStatement {
        let subject = VendorStatement.Subject.entitlement(id)
        if period.isActive == true, period.isInGracePeriod {
            return VendorStatement(subject: subject, vendorState: VendorState.gracePeriod, accepted: [.gracePeriod],
                                   evidence: "is_active true, is_in_grace_period true")
        }
        if period.isActive == true {
            return VendorStatement(subject: subject, vendorState: VendorState.active, accepted: [.active, .gracePeriod], evidence: "is_active true")
        }
        return VendorStatement(subject: subject, vendorState: VendorState.inactive, accepted: VendorState.noAccess,
                               evidence: "is_active false")
    }

    package static func vendorObject(_ profileID: String, _ section: String, _ key: String, _ r: FieldReader) -> JSONValue {
        .object(JSONObject([(VendorObjectKey.profileID, .string(profileID)), (VendorObjectKey.section, .string(section)), (VendorObjectKey.key, .string(key)),
                            (VendorObjectKey.object, .object(r.object))]))
    }
}
