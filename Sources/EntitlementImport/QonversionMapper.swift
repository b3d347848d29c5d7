import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// Qonversion entitlements or permissions → an `ImportDocument` (docs/import.md, section 9.3). Pure.
enum QonversionMapper {
    typealias K = QonversionKey

    static func map(_ root: JSONValue, signature: DocumentSignature, path: String) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .qonversion, shape: signature.shape)
        let items: [JSONValue]
        let itemsPath: String
        var catalog: [String: String] = [:]
        if signature == .qonversionEntitlements {
            guard case .array(let array) = root else { return document }
            items = array
            itemsPath = path
        } else {
            var top = try FieldReader.vendorObject(root, path: path)
            if signature == .qonversionEnvelope {
                guard let data = try top.vendorObject(K.data) else { throw top.vendorMissing(K.data) }
                top = data
                document.detail = "(in a \"data\" envelope)"
            }
            guard let array = try top.vendorArray(K.permissions) else { throw top.vendorMissing(K.permissions) }
            items = array
            itemsPath = top.childPath(K.permissions)
            if let timestamp = try top.vendorEpochSeconds(K.timestamp) {
                document.time = timestamp
                document.timeSource = .timestamp
            }
            for key in [K.products, K.userProducts] {
                for (index, item) in (try top.vendorArray(key) ?? []).enumerated() {
                    let product = try FieldReader.vendorObject(item, path: ImportPath.index(top.childPath(key), index))
                    if let id = try product.vendorNonEmptyString(K.id), let storeID = try product.vendorNonEmptyString(K.storeID) {
                        catalog[id] = catalog[id] ?? storeID
                    }
                }
            }
        }
        // Each entitlement is read completely, store transactions included, before the next (section 6.3).
        var entitlements: [(entitlement: QonversionEntitlement, product: String?, transactions: [MappedTransaction])] = []
        for (index, item) in items.enumerated() {
            let entitlement = try QonversionEntitlement(FieldReader.vendorObject(item, path: ImportPath.index(itemsPath, index)))
            let product = entitlement.associatedProduct.map { catalog[$0] ?? $0 }
            var mapped: [MappedTransaction] = []
            if let product {
                let listPath = entitlement.reader.childPath(K.storeTransactions)
                for (position, transaction) in entitlement.storeTransactions.enumerated() {
                    let reader = try FieldReader.vendorObject(transaction, path: ImportPath.index(listPath, position))
                    mapped.append(try entitlement.storeTransaction(reader, product: product))
                }
            }
            entitlements.append((entitlement, product, mapped))
        }
        var positions: [TransactionKey: Int] = [:]
        var renewals: [String: (rank: Int, renewal: MappedRenewal)] = [:]
        var renewalOrder: [String] = []
        for (entitlement, product, listed) in entitlements {
            document.statements.append(statement(entitlement))
            if entitlement.isManualGrant {
                add(entitlement.manualGrant(), into: &document, positions: &positions)
                continue
            }
            guard let product else {
                document.warnings.append("entitlement \(Terminal.escape(entitlement.id)) names no associated_product; no transaction made for it")
                document.skipped.append("\(entitlement.reader.path): no associated_product")
                continue
            }
            document.noteMapping(entitlement.id, product)
            let mapped = listed.isEmpty ? [entitlement.synthesizedTransaction(product: product)] : listed
            for transaction in mapped { add(transaction, into: &document, positions: &positions) }
            let latest = mapped.map(\.transaction).max { ($0.expiresAt ?? .distantFuture) < ($1.expiresAt ?? .distantFuture) }
            guard let latest, let renewal = entitlement.renewal(latest: latest) else { continue }
            let key = renewal.originalTransactionID
            if let existing = renewals[key], existing.rank >= entitlement.renewRank { continue }
            if renewals[key] == nil { renewalOrder.append(key) }
            renewals[key] = (entitlement.renewRank, renewal)
        }
        document.renewals = renewalOrder.compactMap { renewals[$0]?.renewal }
        return document
    }

    /// One transaction per (store, id): a repeat adds its entitlement to `vendor.qonversion.entitlements`.
    /// `positions` indexes `document.transactions` by key, so N transactions cost N lookups, not N².
    static func add(_ transaction: MappedTransaction, into document: inout ImportDocument, positions: inout [TransactionKey: Int]) {
        guard let index = positions[transaction.key] else {
            positions[transaction.key] = document.transactions.count
            document.transactions.append(transaction)
            return
        }
        guard case .object(var vendor) = document.transactions[index].vendor,
              case .object(var listed)? = vendor[VendorObjectKey.entitlements],
              case .object(let adding)? = transaction.vendor.objectValue?[VendorObjectKey.entitlements] else { return }
        for (key, value) in adding.entries where listed[key] == nil { listed[key] = value }
        vendor[VendorObjectKey.entitlements] = .object(listed)
        document.transactions[index].vendor = .object(vendor)
    }

    /// `active` is Qonversion's verdict; `renew_state` is not (section 9.3).
    static func statement(_ entitlement: QonversionEntitlement) -> VendorStatement {
        let subject = VendorStatement.Subject.entitlement(entitlement.id)
        let evidence = "active \(entitlement.active.text)"
        if entitlement.active.flag {
            return VendorStatement(subject: subject, vendorState: VendorState.active, accepted: [.active, .gracePeriod], evidence: evidence)
        }
        return VendorStatement(subject: subject, vendorState: VendorState.inactive, accepted: VendorState.noAccess,
                               evidence: evidence)
    }
}
