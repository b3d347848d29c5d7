import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// Adapty webhooks: one event object per request behind a fixed `Authorization` value
/// (docs/ingest.md, "Adapty events"). Deduplicated on `event_properties.profile_event_id`,
/// ordered by `event_datetime`. The `{}` Adapty posts when the URL is saved holds no event.
struct AdaptyAdapter: VendorAdapter {
    typealias K = AdaptyEventKey
    let vendor = Vendor.adapty

    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication {
        authenticator.requireHeader(request, header: "authorization", vendor: vendor, secretKey: "authorization")
    }

    func recognizes(_ root: JSONValue) -> Bool {
        guard let object = root.objectValue else { return false }
        return object[K.eventType] != nil && object[K.eventProperties]?.objectValue != nil
    }

    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent] {
        let root = try EventBody.object(request.body, vendor: vendor)
        if root.isEmpty { return [] }  // the verification request on save
        let verification = authenticator.verification(of: request, header: "authorization header")
        do throws(FieldError) {
            let top = FieldReader(root, path: "")
            let type = try top.vendorID(K.eventType)
            guard let properties = try top.vendorObject(K.eventProperties) else { throw top.vendorMissing(K.eventProperties) }
            guard let id = try properties.vendorIDText(K.profileEventID) else { throw properties.vendorMissing(K.profileEventID) }
            var stated = try top.vendorISODate(K.eventDatetime)
            if stated == nil { stated = try properties.vendorISODate(K.eventDatetime) }
            guard let time = stated else { throw top.vendorMissing(K.eventDatetime) }
            let profileID = try top.vendorNonEmptyString(AdaptyKey.profileID)
            guard let customer = try top.vendorNonEmptyString(AdaptyKey.customerUserID) ?? profileID else {
                throw top.vendorMissing(AdaptyKey.customerUserID)
            }
            // Adapty's profile_id becomes the profile's own (`--profile-id` finds it).
            var effects = try AdaptyEventMapper.effects(type: type, properties, time: time, profileID: profileID)
            effects.document?.vendorProfileID = profileID
            return [IngestEvent(vendor: vendor, id: id, type: type, time: time, customer: customer, effects: effects, verification: verification)]
        } catch {
            throw .malformed(error.description)
        }
    }
}

/// The webhook's own field names (Adapty's "Webhook event types and fields"); the access
/// level's are `AdaptyKey`'s, shared with import.
enum AdaptyEventKey {
    static let eventType = "event_type"
    static let eventDatetime = "event_datetime"
    static let eventProperties = "event_properties"
    static let profileEventID = "profile_event_id"
    static let transactionID = "transaction_id"
    static let originalTransactionID = "original_transaction_id"
    static let purchaseDate = "purchase_date"
    static let subscriptionExpiresAt = "subscription_expires_at"
    static let gracePeriodExpiresAt = "grace_period_expires_at"
    static let environment = "environment"
    static let priceLocal = "price_local"
    static let currency = "currency"
    static let accessLevelID = "access_level_id"
}
