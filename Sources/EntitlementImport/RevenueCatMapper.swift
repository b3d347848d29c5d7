import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// RevenueCat's field names (REST v1 `GET /subscribers/{id}`).
enum RevenueCatKey {
    static let requestDate = "request_date"
    static let requestDateMs = "request_date_ms"
    static let subscriber = "subscriber"
    static let originalAppUserID = "original_app_user_id"
    static let firstSeen = "first_seen"
    static let entitlements = "entitlements"
    static let subscriptions = "subscriptions"
    static let nonSubscriptions = "non_subscriptions"
    static let productIdentifier = "product_identifier"
    static let expiresDate = "expires_date"
    static let gracePeriodExpiresDate = "grace_period_expires_date"
    static let purchaseDate = "purchase_date"
    static let originalPurchaseDate = "original_purchase_date"
    static let store = "store"
    static let periodType = "period_type"
    static let isSandbox = "is_sandbox"
    static let unsubscribeDetectedAt = "unsubscribe_detected_at"
    static let billingIssuesDetectedAt = "billing_issues_detected_at"
    static let refundedAt = "refunded_at"
    static let ownershipType = "ownership_type"
    static let storeTransactionID = "store_transaction_id"
    static let price = "price"
    static let amount = "amount"
    static let currency = "currency"
    static let productPlanIdentifier = "product_plan_identifier"
    static let id = "id"
    /// Values
    static let promotionalStore = "promotional"
    static let promoPrefix = "rc_promo_"
    static let anonymousPrefix = "$RCAnonymousID:"
    static let trialPeriod = "trial"
    static let introPeriod = "intro"
    static let prepaidPeriod = "prepaid"
}

/// A RevenueCat subscriber response → an `ImportDocument` (docs/import.md, section 9.1). Pure.
enum RevenueCatMapper {
    typealias K = RevenueCatKey

    /// One `subscriber.entitlements[E]`, read before the purchases (validation order).
    struct Entitlement {
        var id: String
        var productID: String
        var expiresAt: Date?
        var graceUntil: Date?
        var purchasedAt: Date?
    }

    static func map(_ root: JSONValue, path: String) throws(FieldError) -> ImportDocument {
        var document = ImportDocument(format: .revenuecat, shape: .subscriber)
        let top = try FieldReader.vendorObject(root, path: path)
        let requestDate = try top.vendorRequiredISODate(K.requestDate)
        _ = try top.vendorInt(K.requestDateMs)
        guard let subscriber = try top.vendorObject(K.subscriber) else { throw top.vendorMissing(K.subscriber) }
        if let user = try subscriber.vendorNonEmptyString(K.originalAppUserID) {
            document.user = user
            document.userSource = .originalAppUserID
        }
        document.firstSeen = try subscriber.vendorISODate(K.firstSeen)
        document.time = requestDate
        document.timeSource = .requestDate

        var entitlements: [Entitlement] = []
        for (id, value, entryPath) in try subscriber.vendorMap(K.entitlements) {
            let entry = try FieldReader.vendorObject(value, path: entryPath)
            try ImportValidation.entitlementID(id, path: entryPath)
            let product = try entry.vendorID(K.productIdentifier)
            let expires = try entry.vendorISODate(K.expiresDate)
            let grace = try entry.vendorISODate(K.gracePeriodExpiresDate)
            let purchased = try entry.vendorISODate(K.purchaseDate)
            entitlements.append(Entitlement(id: id, productID: product, expiresAt: expires, graceUntil: grace, purchasedAt: purchased))
        }
        var purchases = RevenueCatPurchases(entitlements: entitlements)
        try purchases.read(subscriber, into: &document)
        recordUnexplainedPeriods(of: entitlements, into: &document)
        readPurchasesAfterRequestDate(requestDate, into: &document)

        for entitlement in entitlements {
            if let product = purchases.configurationProduct(for: entitlement) { document.noteMapping(entitlement.id, product) }
            document.statements.append(statement(entitlement, at: requestDate))
        }
        return document
    }

    /// Section 9.1.2: the SDK's `isDateActive` at `request_date`, with the grace period explicit.
    static func statement(_ entitlement: Entitlement, at date: Date) -> VendorStatement {
        let subject = VendorStatement.Subject.entitlement(entitlement.id)
        guard let expires = entitlement.expiresAt else {
            return VendorStatement(subject: subject, vendorState: VendorState.active, accepted: [.active, .gracePeriod], evidence: "expires_date null")
        }
        let evidence = "expires_date \(ISODate.format(expires))"
        if expires > date {
            return VendorStatement(subject: subject, vendorState: VendorState.active, accepted: [.active, .gracePeriod], evidence: evidence)
        }
        if let grace = entitlement.graceUntil, grace > date {
            return VendorStatement(subject: subject, vendorState: VendorState.gracePeriod, accepted: [.gracePeriod],
                                   evidence: "grace_period_expires_date \(ISODate.format(grace))")
        }
        return VendorStatement(subject: subject, vendorState: VendorState.expired, accepted: [.expired, .billingRetry, .revoked], evidence: evidence)
    }
}

/// Checks shared by the mappers (and ingest's event mappers).
package enum ImportValidation {
    /// Entitlement ids go into config.json, which needs them non-empty and free of control characters.
    package static func entitlementID(_ id: String, path: String) throws(FieldError) {
        guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw FieldError(path: path, message: "an entitlement id must be non-empty text without control characters")
        }
    }

    /// Product ids come from map keys too; an empty one cannot be stored.
    package static func productID(_ id: String, path: String) throws(FieldError) {
        guard !id.isEmpty else { throw FieldError(path: path, message: "the product id must not be empty") }
    }
}
