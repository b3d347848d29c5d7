import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// One RevenueCat event → records (docs/ingest.md, "RevenueCat events"). Pure.
///
/// Every event that names a purchase states the whole transaction and renewal info as of the
/// event, so the newest event alone decides them whatever the arrival order.
enum RevenueCatEventMapper {
    /// Types that never change access.
    static let noChange: [String: String] = [
        "TEST": "a test event", "INVOICE_ISSUANCE": "an invoice, not a purchase",
        "EXPERIMENT_ENROLLMENT": "an experiment enrollment", "VIRTUAL_CURRENCY_TRANSACTION": "virtual currency, not an entitlement",
    ]
    /// Types that carry a purchase, with the renewal state they leave.
    static let purchaseTypes: Set<String> = [
        "INITIAL_PURCHASE", "RENEWAL", "UNCANCELLATION", "NON_RENEWING_PURCHASE", "PRODUCT_CHANGE", "SUBSCRIPTION_EXTENDED",
        "REFUND_REVERSED", "CANCELLATION", "EXPIRATION", "BILLING_ISSUE", "SUBSCRIPTION_PAUSED",
    ]
    /// How long a temporary entitlement lasts when the event gives no expiry.
    static let temporaryGrant: TimeInterval = 24 * 3600

    static func effects(type: String, _ r: FieldReader, time: Date) throws(FieldError) -> EventEffects {
        if let reason = noChange[type] { return .none(reason) }
        switch type {
        case "TRANSFER":
            let from = (try r.vendorArray("transferred_from") ?? []).compactMap(\.stringValue).filter { !$0.isEmpty }
            let to = (try r.vendorArray("transferred_to") ?? []).compactMap(\.stringValue).filter { !$0.isEmpty }
            guard !from.isEmpty, let target = to.first else { throw r.vendorMissing("transferred_to") }
            return EventEffects(transfer: EventTransfer(from: from, to: target, transactionIDs: []))
        case "TEMPORARY_ENTITLEMENT_GRANT":
            return try temporaryGrant(r, time: time)
        case _ where purchaseTypes.contains(type):
            return EventEffects(document: try purchase(type: type, r, time: time))
        default:
            return .none("event type \(type) is not mapped")
        }
    }

    private static func purchase(type: String, _ r: FieldReader, time: Date) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .revenuecat, shape: .subscriber)
        let product = try r.vendorID("product_id")
        let purchasedAt = try r.vendorRequiredEpochMilliseconds("purchased_at_ms")
        let expiresAt = try r.vendorEpochMilliseconds("expiration_at_ms")
        let eventID = try r.vendorID("id")
        let id = try r.vendorIDText("transaction_id") ?? "rc:\(eventID)"
        let original = try r.vendorIDText("original_transaction_id") ?? id
        let period = try r.vendorString("period_type")
        let isFirst = original == id
        let kind: TransactionType
        switch (type, period) {
        case ("NON_RENEWING_PURCHASE", _): kind = .nonConsumablePurchase
        case (_, "TRIAL"?): kind = .trialStarted
        case (_, "INTRO"?): kind = isFirst ? .introStarted : .introRenewed
        default: kind = isFirst ? .subscriptionStarted : .subscriptionRenewed
        }
        let store = try r.vendorString("store").map { Store(rawValue: $0.lowercased()) } ?? ImportValue.unknownStore
        let sandbox = try r.vendorString("environment") == "SANDBOX"
        var transaction = Transaction(transactionID: id, originalTransactionID: original, productID: product, store: store, type: kind,
                                      purchasedAt: purchasedAt, expiresAt: type == "NON_RENEWING_PURCHASE" ? nil : expiresAt,
                                      environment: sandbox ? .sandbox : .production,
                                      ownershipType: try r.vendorBool("is_family_share") == true ? .familySharing : .owner)
        if type == "CANCELLATION", try r.vendorString("cancel_reason") == "CUSTOMER_SUPPORT" {
            transaction.revokedAt = time
            transaction.revocationReason = ImportValue.refunded
        }
        transaction.price = try r.vendorNumber("price")
        transaction.currency = try r.vendorString("currency")
        var mapped = MappedTransaction(transaction, vendor: .object(r.object))
        mapped.givesEnvironment = true
        mapped.givesOwnership = true
        document.transactions.append(mapped)
        for entitlement in try entitlementIDs(r) { document.noteMapping(entitlement, product) }
        guard transaction.expiresAt != nil else { return document }
        document.renewals.append(try renewal(type: type, original: original, r, time: time))
        return document
    }

    /// The renewal info as of the event: every field stated, so the newest event decides it.
    private static func renewal(type: String, original: String, _ r: FieldReader, time: Date) throws(FieldError) -> MappedRenewal {
        var renewal = MappedRenewal(originalTransactionID: original)
        let cancelled = type == "CANCELLATION" || type == "EXPIRATION" || type == "SUBSCRIPTION_PAUSED"
        let billing = type == "BILLING_ISSUE"
        renewal.willRenew = .set(!cancelled)
        renewal.unsubscribedAt = .set(cancelled ? time : nil)
        renewal.billingIssueDetectedAt = .set(billing ? time : nil)
        renewal.isInBillingRetry = .set(billing)
        renewal.gracePeriodExpiresAt = .set(billing ? try r.vendorEpochMilliseconds("grace_period_expiration_at_ms") : nil)
        return renewal
    }

    /// `entitlement_ids`, each one an id config.json can hold: a bad one makes the event
    /// malformed (400) rather than fail the journal of every event in its batch.
    private static func entitlementIDs(_ r: FieldReader) throws(FieldError) -> [String] {
        let ids = (try r.vendorArray("entitlement_ids") ?? []).compactMap(\.stringValue)
        for id in ids { try ImportValidation.entitlementID(id, path: r.childPath("entitlement_ids")) }
        return ids
    }

    /// Access RevenueCat gave while a store could not be reached: a manual grant of each entitlement.
    private static func temporaryGrant(_ r: FieldReader, time: Date) throws(FieldError) -> EventEffects {
        let entitlements = try entitlementIDs(r)
        guard !entitlements.isEmpty else { return .none("names no entitlement (entitlement_ids)") }
        let expiresAt = try r.vendorEpochMilliseconds("expiration_at_ms") ?? time.addingTimeInterval(temporaryGrant)
        let eventID = try r.vendorID("id")
        var document = ImportDocument(format: .revenuecat, shape: .subscriber)
        for entitlement in entitlements {
            var grant = Transaction(transactionID: "rc:temporary:\(eventID):\(entitlement)", productID: nil, store: .manual,
                                    type: .manualGrant, purchasedAt: time, expiresAt: expiresAt)
            grant.entitlement = entitlement
            grant.grantedAt = time
            grant.grantedBy = Vendor.revenuecat.rawValue
            grant.reason = "RevenueCat temporary entitlement grant"
            document.transactions.append(MappedTransaction(grant, vendor: .object(r.object)))
        }
        return EventEffects(document: document)
    }
}
