import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// RevenueCat `subscriptions` and `non_subscriptions` → transactions and renewal info (section 9.1).
struct RevenueCatPurchases {
    typealias K = RevenueCatKey

    let entitlements: [RevenueCatMapper.Entitlement]
    /// Product keys, with their store and Play base plan, for the configuration rules.
    private(set) var subscriptionPlans: [String: String?] = [:]
    private(set) var nonSubscriptionKeys: Set<String> = []
    private(set) var promotionalKeys: Set<String> = []

    init(entitlements: [RevenueCatMapper.Entitlement]) { self.entitlements = entitlements }

    /// RevenueCat's promotional durations, the last part of `rc_promo_<entitlement>_<duration>`.
    static let promoDurations = GrantDuration.named.map(\.0).sorted { $0.count > $1.count }

    mutating func read(_ subscriber: FieldReader, into document: inout ImportDocument) throws(FieldError) {
        for (product, value, path) in try subscriber.vendorMap(K.subscriptions) {
            try ImportValidation.productID(product, path: path)
            try subscription(product, try FieldReader.vendorObject(value, path: path), into: &document)
        }
        for (product, value, path) in try subscriber.vendorMap(K.nonSubscriptions) {
            try ImportValidation.productID(product, path: path)
            guard case .array(let items) = value else {
                throw FieldError(path: path, message: "expected an array, found \(ImportPath.show(value))")
            }
            nonSubscriptionKeys.insert(product)
            for (index, item) in items.enumerated() {
                try nonSubscription(product, try FieldReader.vendorObject(item, path: ImportPath.index(path, index)), into: &document)
            }
        }
    }

    /// The product to add to the configuration for `entitlement`, or nil (promotional).
    func configurationProduct(for entitlement: RevenueCatMapper.Entitlement) -> String? {
        let product = entitlement.productID
        if product.hasPrefix(K.promoPrefix) || promotionalKeys.contains(product) { return nil }
        if subscriptionPlans[product] == nil, !nonSubscriptionKeys.contains(product), let colon = product.firstIndex(of: ":") {
            let base = String(product[..<colon]), plan = String(product[product.index(after: colon)...])
            if case .some(.some(let stated)) = subscriptionPlans[base], stated == plan { return base }
        }
        return product
    }

    private mutating func subscription(_ product: String, _ r: FieldReader, into document: inout ImportDocument) throws(FieldError) {
        let purchasedAt = try r.vendorRequiredISODate(K.purchaseDate)
        let originalPurchase = try r.vendorISODate(K.originalPurchaseDate)
        let expiresAt = try r.vendorISODate(K.expiresDate)
        let store = try r.vendorString(K.store)
        let periodType = try r.vendorString(K.periodType)
        let sandbox = try r.vendorBool(K.isSandbox)
        let unsubscribed = try r.vendorISODate(K.unsubscribeDetectedAt)
        let billingIssue = try r.vendorISODate(K.billingIssuesDetectedAt)
        let grace = try r.vendorISODate(K.gracePeriodExpiresDate)
        let refunded = try r.vendorISODate(K.refundedAt)
        let ownership = try r.vendorString(K.ownershipType)
        let storeTransactionID = try r.vendorIDText(K.storeTransactionID)
        let price = Self.price(r, into: &document)
        subscriptionPlans[product] = .some(r.vendorIgnorable(K.productPlanIdentifier, into: &document) { r, key throws(FieldError) in try r.vendorString(key) })
        let vendor = Self.vendor(K.subscriptions, product, r)
        if store == K.promotionalStore || product.hasPrefix(K.promoPrefix) {
            promotionalKeys.insert(product)
            grant(product, purchasedAt: purchasedAt, expiresAt: expiresAt, vendor: vendor, into: &document)
            return
        }
        let isFirstPeriod = originalPurchase.map { $0 == purchasedAt } ?? true
        let type: TransactionType
        switch periodType {
        case K.trialPeriod?: type = .trialStarted
        case K.introPeriod?: type = isFirstPeriod ? .introStarted : .introRenewed
        default: type = isFirstPeriod ? .subscriptionStarted : .subscriptionRenewed
        }
        let id = storeTransactionID ?? "rc:\(product):\(VendorDate.idText(purchasedAt))"
        let original = "rc:\(product):\(VendorDate.idText(originalPurchase ?? purchasedAt))"
        var transaction = Self.transaction(id: id, original: original, product: product, store: store, type: type, purchasedAt: purchasedAt,
                                           sandbox: sandbox, ownership: ownership, refunded: refunded, price: price)
        transaction.transaction.expiresAt = expiresAt
        transaction.vendor = vendor
        transaction.originalIsSynthesized = true
        document.transactions.append(transaction)
        guard expiresAt != nil else { return }
        var renewal = MappedRenewal(originalTransactionID: original)
        // A prepaid plan (Google Play) never renews by itself: RevenueCat reports will_renew false.
        renewal.willRenew = .set(periodType != K.prepaidPeriod && unsubscribed == nil && billingIssue == nil && refunded == nil)
        renewal.unsubscribedAt = .set(unsubscribed)
        renewal.billingIssueDetectedAt = .set(billingIssue)
        renewal.gracePeriodExpiresAt = .set(grace)
        renewal.isInBillingRetry = .set(billingIssue != nil)
        document.renewals.append(renewal)
    }

    private mutating func nonSubscription(_ product: String, _ r: FieldReader, into document: inout ImportDocument) throws(FieldError) {
        let purchasedAt = try r.vendorRequiredISODate(K.purchaseDate)
        let rcID = try r.vendorNonEmptyString(K.id)
        let storeTransactionID = try r.vendorIDText(K.storeTransactionID)
        let store = try r.vendorString(K.store)
        let sandbox = try r.vendorBool(K.isSandbox)
        let refunded = try r.vendorISODate(K.refundedAt)
        let price = Self.price(r, into: &document)
        let vendor = Self.vendor(K.nonSubscriptions, product, r)
        if store == K.promotionalStore || product.hasPrefix(K.promoPrefix) {
            promotionalKeys.insert(product)
            grant(product, purchasedAt: purchasedAt, expiresAt: nil, vendor: vendor, into: &document)
            return
        }
        let id = storeTransactionID ?? rcID.map { "rc:\($0)" } ?? "rc:\(product):\(VendorDate.idText(purchasedAt))"
        var transaction = Self.transaction(id: id, original: id, product: product, store: store, type: .nonConsumablePurchase,
                                           purchasedAt: purchasedAt, sandbox: sandbox, ownership: nil, refunded: refunded, price: price)
        transaction.vendor = vendor
        document.transactions.append(transaction)
    }

    /// Section 9.1.1: a promotional purchase becomes a manual grant of its entitlement.
    private func grant(_ product: String, purchasedAt: Date, expiresAt: Date?, vendor: JSONValue, into document: inout ImportDocument) {
        guard let entitlement = entitlements.first(where: { $0.productID == product })?.id ?? Self.promoEntitlement(product) else {
            document.warnings.append("cannot tell which entitlement \(Terminal.escape(product)) grants; skipped")
            document.skipped.append("\(product): promotional purchase of an unknown entitlement")
            return
        }
        let id = "rc:\(product):\(VendorDate.idText(purchasedAt))"
        var transaction = Transaction(transactionID: id, productID: nil, store: .manual, type: .manualGrant, purchasedAt: purchasedAt, expiresAt: expiresAt)
        transaction.entitlement = entitlement
        transaction.grantedAt = purchasedAt
        transaction.grantedBy = Vendor.revenuecat.rawValue
        transaction.reason = "RevenueCat promotional \(product)"
        document.transactions.append(MappedTransaction(transaction, vendor: vendor))
    }

    /// `rc_promo_<entitlement>_<duration>` → the entitlement, when the name has that form.
    static func promoEntitlement(_ product: String) -> String? {
        guard product.hasPrefix(RevenueCatKey.promoPrefix) else { return nil }
        let rest = product.dropFirst(RevenueCatKey.promoPrefix.count)
        for duration in promoDurations where rest.hasSuffix("_" + duration) {
            let entitlement = String(rest.dropLast(duration.count + 1))
            if !entitlement.isEmpty, (try? ImportValidation.entitlementID(entitlement, path: "")) != nil { return entitlement }
        }
        return nil
    }

    private static func transaction(id: String, original: String, product: String, store: String?, type: TransactionType, purchasedAt: Date,
                                    sandbox: Bool?, ownership: String?, refunded: Date?, price: (Double, String?)?) -> MappedTransaction {
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product,
                                      store: store.map(Store.init) ?? ImportValue.unknownStore, type: type, purchasedAt: purchasedAt, expiresAt: nil,
                                      environment: sandbox == true ? .sandbox : .production,
                                      ownershipType: ownership.map(AppStorePayloads.ownership) ?? .owner)
        if let refunded {
            transaction.revokedAt = refunded
            transaction.revocationReason = ImportValue.refunded
        }
        transaction.price = price?.0
        transaction.currency = price?.1
        var mapped = MappedTransaction(transaction, vendor: .null)
        mapped.givesEnvironment = sandbox != nil
        mapped.givesOwnership = ownership != nil
        return mapped
    }

    /// `price: {amount, currency}`; the status rules never use it, so a surprise in it
    /// is a warning, not an error (RevenueCat's own test data writes `"amount": "5.99"`).
    private static func price(_ r: FieldReader, into document: inout ImportDocument) -> (Double, String?)? {
        guard let price = r.vendorIgnorable(K.price, into: &document, { r, key throws(FieldError) in try r.vendorObject(key) }),
              let amount = price.vendorIgnorable(K.amount, into: &document, { r, key throws(FieldError) in try r.vendorLenientNumber(key) })
        else { return nil }
        return (amount, price.vendorIgnorable(K.currency, into: &document) { r, key throws(FieldError) in try r.vendorString(key) })
    }

    private static func vendor(_ section: String, _ product: String, _ r: FieldReader) -> JSONValue {
        .object(JSONObject([(VendorObjectKey.section, .string(section)), (VendorObjectKey.productID, .string(product)), (VendorObjectKey.object, .object(r.object))]))
    }
}
