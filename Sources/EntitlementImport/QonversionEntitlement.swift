import FoundationEssentials
import EntitlementJSON
import EntitlementModel

/// Qonversion's field names (entitlements / permissions responses).
enum QonversionKey {
    static let timestamp = "timestamp"
    static let permissions = "permissions"
    static let products = "products"
    static let userProducts = "user_products"
    static let data = "data"
    static let id = "id"
    static let storeID = "store_id"
    static let active = "active"
    static let renewState = "renew_state"
    static let source = "source"
    static let grantType = "grant_type"
    static let associatedProduct = "associated_product"
    static let startedTimestamp = "started_timestamp"
    static let expirationTimestamp = "expiration_timestamp"
    static let autoRenewDisableTimestamp = "auto_renew_disable_timestamp"
    static let lastActivatedOfferCode = "last_activated_offer_code"
    static let storeTransactions = "store_transactions"
    static let transactionID = "transaction_id"
    static let originalTransactionID = "original_transaction_id"
    static let transactionTimestamp = "transaction_timestamp"
    static let transactionRevokeTimestamp = "transaction_revoke_timestamp"
    static let type = "type"
    static let environment = "environment"
    static let ownershipType = "ownership_type"
    static let offerCode = "offer_code"
    /// Values
    static let manual = "manual"
    static let familySharing = "family_sharing"
    static let stores: [String: Store] = ["appstore": .appStore, "playstore": .playStore, "stripe": .stripe, "unknown": ImportValue.unknownStore]
    static let nonConsumableSpellings: Set<String> = ["nonconsumable_purchase", "non_consumable_purchase"]
}

/// One Qonversion entitlement, read in validation order (section 9.3).
struct QonversionEntitlement {
    typealias K = QonversionKey

    var id: String
    var active: (flag: Bool, text: String)
    var renewState: Int?
    var source: String?
    var grantType: String?
    var associatedProduct: String?
    var startedAt: Date
    var expiresAt: Date?
    var autoRenewDisabledAt: Date?
    var offerCode: String?
    var storeTransactions: [JSONValue]
    let reader: FieldReader

    init(_ r: FieldReader) throws(FieldError) {
        reader = r
        id = try r.vendorID(K.id)
        try ImportValidation.entitlementID(id, path: r.childPath(K.id))
        active = try r.vendorActiveFlag(K.active)
        renewState = try r.vendorInt(K.renewState)
        source = try r.vendorString(K.source)
        grantType = try r.vendorString(K.grantType)
        associatedProduct = try r.vendorNonEmptyString(K.associatedProduct)
        startedAt = try r.vendorRequiredEpochSeconds(K.startedTimestamp)
        expiresAt = try r.vendorEpochSeconds(K.expirationTimestamp)
        autoRenewDisabledAt = try r.vendorEpochSeconds(K.autoRenewDisableTimestamp)
        offerCode = try r.vendorNonEmptyString(K.lastActivatedOfferCode)
        let manual = source == K.manual || grantType == K.manual
        storeTransactions = manual ? [] : (try r.vendorArray(K.storeTransactions) ?? [])
    }

    var isManualGrant: Bool { source == K.manual || grantType == K.manual }

    /// `source` → our store.
    var store: Store {
        guard let source else { return ImportValue.unknownStore }
        return K.stores[source] ?? Store(rawValue: source)
    }

    /// The entitlement object without `store_transactions`, for `vendor.qonversion.entitlements`.
    var vendorObject: JSONValue {
        var object = reader.object
        object[K.storeTransactions] = nil
        return .object(object)
    }

    /// Maps `store_transactions[j]`; there is no product field, the product is the entitlement's.
    func storeTransaction(_ r: FieldReader, product: String) throws(FieldError) -> MappedTransaction {
        let id = try r.vendorID(K.transactionID)
        let original = try r.vendorNonEmptyString(K.originalTransactionID) ?? id
        let purchasedAt = try r.vendorRequiredEpochSeconds(K.transactionTimestamp)
        let expiresAt = try r.vendorEpochSeconds(K.expirationTimestamp)
        let revokedAt = try r.vendorEpochSeconds(K.transactionRevokeTimestamp)
        let typeName = try r.vendorNonEmptyString(K.type)
        let environment = try r.vendorString(K.environment)
        let ownership = try r.vendorString(K.ownershipType)
        let offerCode = try r.vendorNonEmptyString(K.offerCode)
        let type: TransactionType
        if let typeName {
            type = K.nonConsumableSpellings.contains(typeName) ? .nonConsumablePurchase : TransactionType(rawValue: typeName)
        } else {
            type = expiresAt == nil ? .nonConsumablePurchase : .subscriptionStarted
        }
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product, store: store, type: type,
                                      purchasedAt: purchasedAt, expiresAt: expiresAt,
                                      environment: environment.map(Environment.init) ?? .production,
                                      ownershipType: ownership.map(OwnershipType.init) ?? .owner)
        transaction.revokedAt = revokedAt
        transaction.offerCode = offerCode
        var mapped = MappedTransaction(transaction, vendor: vendor(storeTransaction: .object(r.object)))
        mapped.givesEnvironment = environment != nil
        mapped.givesOwnership = ownership != nil
        return mapped
    }

    /// The one transaction made from the entitlement itself when it lists no store transactions.
    func synthesizedTransaction(product: String) -> MappedTransaction {
        let id = "qonversion:\(product):\(VendorDate.idText(startedAt))"
        let type: TransactionType = expiresAt != nil && renewState != -1 ? .subscriptionStarted : .nonConsumablePurchase
        var transaction = Transaction(transactionID: id, productID: product, store: store, type: type, purchasedAt: startedAt, expiresAt: expiresAt,
                                      ownershipType: grantType == K.familySharing ? .familySharing : .owner)
        transaction.offerCode = offerCode
        var mapped = MappedTransaction(transaction, vendor: vendor(storeTransaction: .null))
        mapped.givesOwnership = grantType == K.familySharing
        return mapped
    }

    /// A manual grant of this entitlement (`source` or `grant_type` is `manual`).
    func manualGrant() -> MappedTransaction {
        let id = "qonversion:manual:\(self.id):\(VendorDate.idText(startedAt))"
        var transaction = Transaction(transactionID: id, productID: nil, store: .manual, type: .manualGrant, purchasedAt: startedAt, expiresAt: expiresAt)
        transaction.entitlement = self.id
        transaction.grantedAt = startedAt
        transaction.grantedBy = Vendor.qonversion.rawValue
        transaction.reason = "Qonversion manual grant"
        return MappedTransaction(transaction, vendor: vendor(storeTransaction: .null))
    }

    func vendor(storeTransaction: JSONValue) -> JSONValue {
        .object(JSONObject([(VendorObjectKey.storeTransaction, storeTransaction), (VendorObjectKey.entitlements, .object(JSONObject([(id, vendorObject)])))]))
    }

    /// `renew_state` → the renewal fields of the subscription whose latest transaction is `latest`.
    func renewal(latest: Transaction) -> MappedRenewal? {
        guard let latestEnd = latest.expiresAt, renewState != -1 else { return nil }
        var renewal = MappedRenewal(originalTransactionID: latest.originalTransactionID)
        switch renewState {
        case 1?, 2?:
            renewal.willRenew = .set(renewState == 1)
            renewal.isInBillingRetry = .set(false)
            renewal.gracePeriodExpiresAt = .set(nil)
        case 3?:
            renewal.willRenew = .set(true)
            renewal.isInBillingRetry = .set(true)
            renewal.gracePeriodExpiresAt = .set(expiresAt.flatMap { $0 > latestEnd ? $0 : nil })
        default:
            break
        }
        if let autoRenewDisabledAt { renewal.unsubscribedAt = .set(autoRenewDisabledAt) }
        return renewal.isEmpty ? nil : renewal
    }

    /// Which state wins when two entitlements describe one subscription: 3 > 2 > 1 > -1 > 0.
    var renewRank: Int {
        switch renewState {
        case 3?: return 4
        case 2?: return 3
        case 1?: return 2
        case .some(-1): return 1
        default: return 0
        }
    }
}
