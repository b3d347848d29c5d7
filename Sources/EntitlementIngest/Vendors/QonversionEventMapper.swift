import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// One Qonversion webhook event → records (docs/ingest.md, "Qonversion events"). Pure.
///
/// A purchase or refund event states its transaction whole (`transaction.transaction_id`,
/// `expires`); a cancellation, billing retry or expiry states only the renewal facts of
/// `transaction.original_transaction_id`'s subscription. The newest event decides each record.
/// Qonversion's events name no entitlement: products map to entitlements through config.json.
enum QonversionEventMapper {
    typealias K = QonversionEventKey

    /// Events that start, renew or change a subscription.
    static let subscriptionPurchases: Set<String> = [
        "trial_started", "trial_converted", "subscription_started", "subscription_renewed", "subscription_upgraded",
        "subscription_product_changed",
    ]
    static let oneTimePurchases: Set<String> = ["in_app_purchase"]
    static let refunds: Set<String> = ["subscription_refunded", "in_app_refunded"]
    /// Events that change only the renewal facts (grace until `transaction.grace_period_expires`).
    static let renewalOnly: [String: RenewalStatement] = [
        "trial_canceled": .cancelled, "subscription_canceled": .cancelled,
        "trial_expired": .expired, "subscription_expired": .expired,
    ]
    static let billingRetry: Set<String> = [
        "trial_billing_retry", "subscription_billing_retry", "trial_billing_retry_period", "subscription_billing_retry_period",
    ]
    /// Other spellings read as Qonversion's own.
    static let spellings = ["trial_cancelled": "trial_canceled", "subscription_cancelled": "subscription_canceled"]
    /// Events that never change access.
    static let noChange: [String: String] = ["trial_still_active": "a reminder that a trial is running"]

    static func effects(type: String, _ r: FieldReader, transaction t: FieldReader?, time: Date) throws(FieldError) -> EventEffects {
        // Qonversion spells "canceled"; "cancelled" is read the same.
        let name = spellings[type] ?? type
        if let reason = noChange[name] { return .none(reason) }
        var document = ImportDocument(format: .qonversion, shape: .event)
        if subscriptionPurchases.contains(name) || oneTimePurchases.contains(name) || refunds.contains(name) {
            guard let t else { throw r.vendorMissing(K.transaction) }
            PurchaseEventRule.record(try transaction(name, r, t, time: time), refund: refunds.contains(name), at: time, in: &document)
            return EventEffects(document: document)
        }
        var statement = renewalOnly[name]
        if billingRetry.contains(name) { statement = .billingIssue(grace: try t?.vendorEpochSeconds(K.gracePeriodExpires)) }
        guard let statement else { return .none("event type \(type) is not mapped") }
        guard let t else { throw r.vendorMissing(K.transaction) }
        var original = try t.vendorIDText(K.originalTransactionID)
        if original == nil { original = try t.vendorIDText(K.transactionID) }
        guard let original else { throw t.vendorMissing(K.originalTransactionID) }
        document.renewals.append(statement.renewal(original: original, at: time))
        return EventEffects(document: document)
    }

    /// The event's transaction as of the event; bought at `transaction_date`, else at the event.
    static func transaction(_ name: String, _ r: FieldReader, _ t: FieldReader, time: Date) throws(FieldError) -> MappedTransaction {
        var changedTo = try r.vendorNonEmptyString(K.newProductID)
        if changedTo == nil { changedTo = try r.vendorID(K.productID) }
        let product = changedTo ?? ""
        guard let id = try t.vendorIDText(K.transactionID) else { throw t.vendorMissing(K.transactionID) }
        let original = try t.vendorIDText(K.originalTransactionID) ?? id
        let purchasedAt = try t.vendorEpochSeconds(K.transactionDate) ?? time
        let oneTime = name.hasPrefix("in_app")
        let expiresAt = oneTime ? nil : try t.vendorRequiredEpochSeconds(K.expires)
        let kind = PurchaseEventRule.kind(event: name, oneTime: oneTime, id: id, original: original)
        let environment = try r.vendorString(K.environment)
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product,
                                      store: store(platform: try r.vendorString(K.platform)), type: kind, purchasedAt: purchasedAt,
                                      expiresAt: expiresAt, environment: PurchaseEventRule.environment(environment))
        if let price = try r.vendorObject(K.price) {
            transaction.price = try price.vendorLenientNumber(K.value)
            transaction.currency = try price.vendorString(K.currency)
        }
        var mapped = MappedTransaction(transaction, vendor: .object(r.object))
        mapped.givesEnvironment = environment != nil
        return mapped
    }

    /// The store of a purchase, from the app's `platform`.
    static func store(platform: String?) -> Store {
        switch platform?.lowercased() {
        case "ios"?, "ipados"?, "macos"?, "tvos"?, "watchos"?, "visionos"?: return .appStore
        case "android"?: return .playStore
        case "stripe"?, "web"?: return .stripe
        default: return ImportValue.unknownStore
        }
    }
}
