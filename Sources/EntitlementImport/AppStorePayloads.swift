import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Apple's decoded transaction and renewal payloads → our transaction and renewal info (sections 8.2–8.4).
enum AppStorePayloads {
    typealias K = AppleKey

    /// Maps one `JWSTransactionDecodedPayload`; returns its subscription id and `signedDate`.
    static func transaction(_ r: FieldReader, into document: inout ImportDocument) throws(FieldError) -> (subject: String, signedDate: Date?) {
        let id = try r.vendorID(K.transactionId)
        let original = try r.vendorNonEmptyString(K.originalTransactionId) ?? id
        let product = try r.vendorID(K.productId)
        let purchasedAt = try r.vendorRequiredEpochMilliseconds(K.purchaseDate)
        let expiresAt = try r.vendorEpochMilliseconds(K.expiresDate)
        let appleType = try r.vendorNonEmptyString(K.type)
        let offerType = try r.vendorInt(K.offerType)
        let discount = try r.vendorString(K.offerDiscountType)
        let reason = try r.vendorString(K.transactionReason)
        let offerCode = try r.vendorString(K.offerIdentifier)
        let revokedAt = try r.vendorEpochMilliseconds(K.revocationDate)
        let revocationCode = try r.vendorInt(K.revocationReason)
        let ownership = try r.vendorString(K.inAppOwnershipType)
        let environment = try r.vendorString(K.environment)
        let price = r.vendorIgnorable(K.price, into: &document) { r, key throws(FieldError) in try r.vendorLenientNumber(key) }
        let currency = r.vendorIgnorable(K.currency, into: &document) { r, key throws(FieldError) in try r.vendorString(key) }
        document.noteToken(try r.vendorString(K.appAccountToken))
        let signedDate = try r.vendorEpochMilliseconds(K.signedDate)
        let upgraded = try r.vendorBool(K.isUpgraded)

        let isRenewal = reason.map { $0 == AppleValue.renewal } ?? (id != original)
        let type = transactionType(appleType, expiresAt: expiresAt, offerType: offerType, discount: discount, price: price, isRenewal: isRenewal)
        if type == AppleValue.nonRenewingType, expiresAt == nil {
            document.warnings.append("non-renewing subscription \(Terminal.escape(product)) has no expiry in App Store data; it grants access with no end")
        }
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product, store: .appStore, type: type,
                                      purchasedAt: purchasedAt, expiresAt: expiresAt,
                                      environment: environment.map(Self.environment) ?? .production,
                                      ownershipType: ownership.map(Self.ownership) ?? .owner)
        if let revokedAt {
            transaction.revokedAt = revokedAt
            transaction.revocationReason = revocationCode.map(revocationReason)
        }
        transaction.offerCode = offerCode
        transaction.price = price.map { $0 / 1000 }
        transaction.currency = currency
        transaction.isUpgraded = upgraded == true ? true : nil
        var mapped = MappedTransaction(transaction, vendor: .object(JSONObject([(VendorObjectKey.transaction, .object(r.object))])))
        mapped.givesEnvironment = environment != nil
        mapped.givesOwnership = ownership != nil
        document.transactions.append(mapped)
        return (original, signedDate)
    }

    /// Maps one `JWSRenewalInfoDecodedPayload`; returns its subscription id and `signedDate`.
    static func renewal(_ r: FieldReader, into document: inout ImportDocument) throws(FieldError) -> (subject: String, signedDate: Date?) {
        let original = try r.vendorID(K.originalTransactionId)
        let autoRenew = try r.vendorInt(K.autoRenewStatus)
        let retry = try r.vendorBool(K.isInBillingRetryPeriod)
        let grace = try r.vendorEpochMilliseconds(K.gracePeriodExpiresDate)
        document.noteToken(try r.vendorString(K.appAccountToken))
        let signedDate = try r.vendorEpochMilliseconds(K.signedDate)
        var renewal = MappedRenewal(originalTransactionID: original)
        renewal.willRenew = .set(autoRenew == 1)
        renewal.isInBillingRetry = .set(retry ?? false)
        renewal.gracePeriodExpiresAt = .set(grace)
        renewal.vendor = .object(JSONObject([(VendorObjectKey.renewalInfo, .object(r.object))]))
        document.renewals.append(renewal)
        return (original, signedDate)
    }

    /// Section 8.3: Apple's product type and offer fields → our `type`.
    static func transactionType(_ appleType: String?, expiresAt: Date?, offerType: Int?, discount: String?, price: Double?, isRenewal: Bool) -> TransactionType {
        switch appleType {
        case AppleValue.nonConsumable?: return .nonConsumablePurchase
        case AppleValue.consumable?: return .consumablePurchase
        case AppleValue.nonRenewing?: return AppleValue.nonRenewingType
        case AppleValue.autoRenewable?: break
        case nil: if expiresAt == nil { return .nonConsumablePurchase }
        case let other?: return TransactionType(rawValue: other)
        }
        if discount == AppleValue.freeTrial || (offerType == AppleValue.introductoryOffer && price == 0) { return .trialStarted }
        if offerType == AppleValue.introductoryOffer { return isRenewal ? .introRenewed : .introStarted }
        return isRenewal ? .subscriptionRenewed : .subscriptionStarted
    }

    /// `Production` → production; Apple's test environments → sandbox; others kept.
    static func environment(_ value: String) -> Environment {
        if value == AppleValue.production { return .production }
        if AppleValue.testEnvironments.contains(value) { return .sandbox }
        return Environment(rawValue: value)
    }

    static func ownership(_ value: String) -> OwnershipType {
        switch value {
        case AppleValue.purchased: return .owner
        case AppleValue.familyShared: return .familySharing
        default: return OwnershipType(rawValue: value)
        }
    }

    /// 1: refunded for an issue in the app; 0: any other refund or a family-sharing revocation.
    static func revocationReason(_ code: Int) -> String {
        switch code {
        case 1: return ImportValue.refunded
        case 0: return ImportValue.otherRevocation
        default: return String(code)
        }
    }
}
