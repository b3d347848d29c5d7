import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// Qonversion webhooks: one event object per request behind `Authorization: Basic …`
/// (docs/ingest.md, "Qonversion events"). Ordered by `time` (seconds).
///
/// Qonversion documents no event id, so the key is built from the event's own fields:
/// the JSON array `[user_id, event_name, product_id, transaction_id, time]` (absent ones as
/// ""), with `time` spelt as in the body. A retry repeats the body, so it repeats the key;
/// two different events of one customer differ in name, product, transaction or time.
struct QonversionAdapter: VendorAdapter {
    typealias K = QonversionEventKey
    let vendor = Vendor.qonversion

    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication {
        authenticator.requireHeader(request, header: "authorization", vendor: vendor, secretKey: "authorization")
    }

    func recognizes(_ root: JSONValue) -> Bool {
        guard let object = root.objectValue else { return false }
        return object[K.eventName] != nil && object[K.userID] != nil
    }

    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent] {
        let root = try EventBody.object(request.body, vendor: vendor)
        let verification = authenticator.verification(of: request, header: "authorization header")
        do throws(FieldError) {
            let r = FieldReader(root, path: "")
            let type = try r.vendorID(K.eventName)
            guard let user = try r.vendorIDText(K.userID) else { throw r.vendorMissing(K.userID) }
            let time = try r.vendorRequiredEpochSeconds(K.time)
            let transaction = try r.vendorObject(K.transaction)
            let transactionID = try transaction?.vendorIDText(K.transactionID)
            let key: [JSONValue] = [.string(user), .string(type), .string(try r.vendorIDText(K.productID) ?? ""),
                                    .string(transactionID ?? ""), r.value(K.time) ?? .null]
            let id = String(decoding: JSONWriter(style: .compact).bytes(.array(key)), as: UTF8.self)
            let ids = [try r.vendorNonEmptyString(K.customUserID), try r.vendorNonEmptyString(K.identityID), user].compactMap { $0 }
            let customer = ids[0]
            let effects = try QonversionEventMapper.effects(type: type, r, transaction: transaction, time: time)
            var aliases: [String] = []
            for other in ids.dropFirst() where other != customer && !aliases.contains(other) { aliases.append(other) }
            var withAliases = effects
            withAliases.aliases = aliases
            return [IngestEvent(vendor: vendor, id: id, type: type, time: time, customer: customer, effects: withAliases, verification: verification)]
        } catch {
            throw .malformed(error.description)
        }
    }
}

/// Qonversion's webhook field names (its "Webhooks" page).
enum QonversionEventKey {
    static let eventName = "event_name"
    static let userID = "user_id"
    static let customUserID = "custom_user_id"
    static let identityID = "identity_id"
    static let time = "time"
    static let productID = "product_id"
    static let newProductID = "new_product_id"
    static let transaction = "transaction"
    static let transactionID = "transaction_id"
    static let originalTransactionID = "original_transaction_id"
    static let transactionDate = "transaction_date"
    static let expires = "expires"
    static let gracePeriodExpires = "grace_period_expires"
    static let environment = "environment"
    static let platform = "platform"
    static let price = "price"
    static let value = "value"
    static let currency = "currency"
}
