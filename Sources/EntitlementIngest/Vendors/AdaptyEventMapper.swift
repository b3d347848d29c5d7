import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// One Adapty webhook event → records (docs/ingest.md, "Adapty events"). Pure.
///
/// A purchase or refund event states its transaction whole (`transaction_id`, `purchase_date`,
/// `subscription_expires_at`); a cancellation, billing issue or expiry states only the renewal
/// facts of `original_transaction_id`'s subscription; `access_level_updated` is the snapshot of
/// an access level (`AdaptyAccessLevelSnapshot`). The newest event decides each record.
enum AdaptyEventMapper {
    typealias K = AdaptyEventKey

    /// Events that start, renew or extend a period, or buy something once.
    static let purchases: Set<String> = [
        "subscription_started", "subscription_renewed", "trial_started", "trial_converted", "subscription_deferred",
        "non_subscription_purchase",
    ]
    static let refunds: Set<String> = ["subscription_refunded", "non_subscription_purchase_refunded"]
    /// Events that change only the subscription's renewal facts (grace ends at the event's
    /// `grace_period_expires_at`, else its `subscription_expires_at`).
    static let renewalOnly: [String: RenewalStatement] = [
        "subscription_renewal_cancelled": .cancelled, "trial_renewal_cancelled": .cancelled,
        "subscription_renewal_reactivated": .renewing, "trial_renewal_reactivated": .renewing,
        "subscription_paused": .paused, "subscription_expired": .expired, "trial_expired": .expired,
        "billing_issue_detected": .billingIssue(grace: nil),
    ]
    static let gracePeriod = "entered_grace_period"
    static let snapshot = "access_level_updated"

    static func effects(type: String, _ p: FieldReader, time: Date, profileID: String?) throws(FieldError) -> EventEffects {
        if type == snapshot { return EventEffects(document: try AdaptyAccessLevelSnapshot.document(p, time: time, profileID: profileID)) }
        var document = ImportDocument(format: .adapty, shape: .event)
        if purchases.contains(type) || refunds.contains(type) {
            let mapped = try transaction(type: type, p)
            PurchaseEventRule.record(mapped, refund: refunds.contains(type), at: time, in: &document)
            if let level = try p.vendorNonEmptyString(K.accessLevelID), let product = mapped.transaction.productID {
                try ImportValidation.entitlementID(level, path: p.childPath(K.accessLevelID))
                document.noteMapping(level, product)
            }
            return EventEffects(document: document)
        }
        var statement = renewalOnly[type]
        if type == gracePeriod {
            var grace = try p.vendorISODate(K.gracePeriodExpiresAt)
            if grace == nil { grace = try p.vendorRequiredISODate(K.subscriptionExpiresAt) }
            statement = .billingIssue(grace: grace)
        }
        guard let statement else { return .none("event type \(type) is not mapped") }
        guard let original = try originalTransactionID(p) else { throw p.vendorMissing(K.originalTransactionID) }
        document.renewals.append(statement.renewal(original: original, at: time))
        return EventEffects(document: document)
    }

    /// `original_transaction_id`, else `transaction_id` (a first purchase is its own original).
    static func originalTransactionID(_ p: FieldReader) throws(FieldError) -> String? {
        if let original = try p.vendorIDText(K.originalTransactionID) { return original }
        return try p.vendorIDText(K.transactionID)
    }

    /// The event's transaction as of the event.
    static func transaction(type: String, _ p: FieldReader) throws(FieldError) -> MappedTransaction {
        let product = try p.vendorID(AdaptyKey.vendorProductID)
        guard let id = try p.vendorIDText(K.transactionID) else { throw p.vendorMissing(K.transactionID) }
        let original = try originalTransactionID(p) ?? id
        let purchasedAt = try p.vendorRequiredISODate(K.purchaseDate)
        let oneTime = type.hasPrefix("non_subscription")
        let expiresAt = oneTime ? nil : try p.vendorRequiredISODate(K.subscriptionExpiresAt)
        let kind = PurchaseEventRule.kind(event: type, oneTime: oneTime, id: id, original: original)
        let environment = try p.vendorString(K.environment)
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product,
                                      store: try p.vendorString(AdaptyKey.store).map(Store.init) ?? ImportValue.unknownStore, type: kind,
                                      purchasedAt: purchasedAt, expiresAt: expiresAt,
                                      environment: PurchaseEventRule.environment(environment))
        transaction.price = try p.vendorLenientNumber(K.priceLocal)
        transaction.currency = try p.vendorString(K.currency)
        var mapped = MappedTransaction(transaction, vendor: .object(p.object))
        mapped.givesEnvironment = environment != nil
        return mapped
    }
}
