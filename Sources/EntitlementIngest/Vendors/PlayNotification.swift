import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON

/// One Google Play real-time developer notification, decoded from its Pub/Sub envelope. Pure.
///
/// A notification carries a purchase token and what happened, never the purchase itself:
/// Google requires reading the purchase (`purchases.subscriptionsv2.get`) after it, and the
/// token names no customer. So every subscription notification means "this token's purchase
/// changed; import its document" (docs/ingest.md, "Google Play").
struct PlayNotification: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// `subscriptionNotification`: the code and its name (`SUBSCRIPTION_RENEWED`).
        case subscription(code: Int, name: String)
        /// `voidedPurchaseNotification`: a refund or chargeback, which revokes.
        case voided(orderID: String?)
        case test
        /// `oneTimeProductNotification`: not a subscription.
        case oneTimeProduct
    }

    var messageID: String
    var time: Date
    var packageName: String?
    var purchaseToken: String?
    var kind: Kind

    /// `subscriptionNotification.notificationType` codes (1–13 and 17–20).
    static let names: [Int: String] = [
        1: "SUBSCRIPTION_RECOVERED", 2: "SUBSCRIPTION_RENEWED", 3: "SUBSCRIPTION_CANCELED", 4: "SUBSCRIPTION_PURCHASED",
        5: "SUBSCRIPTION_ON_HOLD", 6: "SUBSCRIPTION_IN_GRACE_PERIOD", 7: "SUBSCRIPTION_RESTARTED", 8: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED",
        9: "SUBSCRIPTION_DEFERRED", 10: "SUBSCRIPTION_PAUSED", 11: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", 12: "SUBSCRIPTION_REVOKED",
        13: "SUBSCRIPTION_EXPIRED", 17: "SUBSCRIPTION_ITEMS_CHANGED", 18: "SUBSCRIPTION_CANCELLATION_SCHEDULED",
        19: "SUBSCRIPTION_PRICE_CHANGE_UPDATED", 20: "SUBSCRIPTION_PENDING_PURCHASE_CANCELED",
    ]

    /// The event type the ledger records: the notification's name, `VOIDED_PURCHASE` or `TEST`.
    var type: String {
        switch kind {
        case .subscription(_, let name): return name
        case .voided: return "VOIDED_PURCHASE"
        case .test: return "TEST"
        case .oneTimeProduct: return "ONE_TIME_PRODUCT"
        }
    }

    /// Decodes the push envelope `{"message": {"data": base64, "messageId"}, "subscription"}`.
    init(envelope root: JSONObject) throws(FieldError) {
        let envelope = FieldReader(root, path: "")
        guard let message = try envelope.vendorObject("message") else { throw envelope.vendorMissing("message") }
        messageID = try message.vendorID("messageId")
        let encoded = try message.vendorID("data")
        guard let bytes = Base64URL.decodeStandard(encoded.utf8), let decoded = try? JSONParser.parse(bytes), case .object(let object) = decoded else {
            throw FieldError(path: message.childPath("data"), message: "not base64 of a JSON object")
        }
        let r = FieldReader(object, path: "message.data")
        packageName = try r.vendorString("packageName")
        // eventTimeMillis is a decimal string in Google's documentation; a number is read too.
        let text = try? r.vendorString("eventTimeMillis")
        let number = try? r.vendorNumber("eventTimeMillis")
        guard let millis = (text ?? nil).flatMap(Double.init) ?? (number ?? nil), let time = VendorDate.fromEpochMilliseconds(millis) else {
            throw r.vendorMissing("eventTimeMillis")
        }
        self.time = time
        if let notification = try r.vendorObject("subscriptionNotification") {
            guard let code = try notification.vendorInt("notificationType") else { throw notification.vendorMissing("notificationType") }
            guard let name = Self.names[code] else {
                throw FieldError(path: notification.childPath("notificationType"), message: "unknown notification type \(code)")
            }
            purchaseToken = try notification.vendorID("purchaseToken")
            kind = .subscription(code: code, name: name)
        } else if let voided = try r.vendorObject("voidedPurchaseNotification") {
            purchaseToken = try voided.vendorID("purchaseToken")
            kind = .voided(orderID: try voided.vendorString("orderId"))
        } else if r.value("testNotification") != nil {
            purchaseToken = nil
            kind = .test
        } else if r.value("oneTimeProductNotification") != nil {
            purchaseToken = nil
            kind = .oneTimeProduct
        } else {
            throw FieldError(path: "message.data", message: "no subscriptionNotification, voidedPurchaseNotification or testNotification")
        }
    }

    /// What the notification does to the store: nothing by itself; the reason names the token to
    /// fetch. (A voided purchase revokes: `GooglePlayAdapter` makes it a `PlayVoidedPurchase`.)
    var effects: EventEffects {
        var effects = noChangeEffects
        if case .subscription(let code, _) = kind, ![8, 19, 20].contains(code) { effects.awaitingPurchase = purchaseToken }
        return effects
    }

    private var noChangeEffects: EventEffects {
        switch kind {
        case .test: return .none("a test notification")
        case .oneTimeProduct: return .none("a one-time product, not a subscription")
        case .voided:
            return .none("refund of purchase \(purchaseToken ?? "?"): revoked by its voided-purchase event")
        case .subscription:
            return .none("purchase \(purchaseToken ?? "?") changed: import its SubscriptionPurchaseV2 document")
        }
    }
}
