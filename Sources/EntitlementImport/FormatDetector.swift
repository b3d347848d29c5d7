import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// One test on a document's top-level value (docs/import.md, section 2.2).
enum DocumentSignature: String, CaseIterable, Sendable {
    case appStoreTransaction = "A1", appStoreTransactions = "A2", appStoreRenewalInfo = "A3"
    case appStoreNotification = "A4", appStoreSignedNotification = "A5", appStoreStatuses = "A6", appStoreHistory = "A7"
    case revenueCatSubscriber = "R1"
    case adaptyProfile = "D1", adaptyEnvelope = "D2"
    case qonversionEntitlements = "Q1", qonversionPermissions = "Q2", qonversionEnvelope = "Q3"
    case googlePlaySubscription = "G1"
    case stripeSubscription = "S1", stripeList = "S2", stripeEvent = "S3"

    var format: Vendor {
        switch self {
        case .appStoreTransaction, .appStoreTransactions, .appStoreRenewalInfo, .appStoreNotification,
             .appStoreSignedNotification, .appStoreStatuses, .appStoreHistory:
            return .appstore
        case .revenueCatSubscriber: return .revenuecat
        case .adaptyProfile, .adaptyEnvelope: return .adapty
        case .qonversionEntitlements, .qonversionPermissions, .qonversionEnvelope: return .qonversion
        case .googlePlaySubscription: return .googleplay
        case .stripeSubscription, .stripeList, .stripeEvent: return .stripe
        }
    }

    var shape: ImportShape {
        switch self {
        case .appStoreTransaction: return .transaction
        case .appStoreTransactions: return .transactions
        case .appStoreRenewalInfo: return .renewalInfo
        case .appStoreNotification, .appStoreSignedNotification: return .notification
        case .appStoreStatuses: return .statuses
        case .appStoreHistory: return .history
        case .revenueCatSubscriber: return .subscriber
        case .adaptyProfile, .adaptyEnvelope: return .profile
        case .qonversionEntitlements: return .entitlements
        case .qonversionPermissions, .qonversionEnvelope: return .permissions
        case .googlePlaySubscription: return .subscriptionPurchase
        case .stripeSubscription: return .subscription
        case .stripeList: return .subscriptions
        case .stripeEvent: return .event
        }
    }

    /// Why it matched, for the ambiguity message: `has "subscriber"`.
    var evidence: String {
        switch self {
        case .appStoreTransaction: return "has \"transactionId\""
        case .appStoreTransactions: return "is an array of transactions"
        case .appStoreRenewalInfo: return "has \"autoRenewStatus\""
        case .appStoreNotification: return "has \"notificationType\""
        case .appStoreSignedNotification: return "has \"signedPayload\""
        case .appStoreStatuses: return "has \"data\" and \"bundleId\""
        case .appStoreHistory: return "has \"signedTransactions\""
        case .revenueCatSubscriber: return "has \"subscriber\""
        case .adaptyProfile: return "has \"profile_id\""
        case .adaptyEnvelope: return "has \"data.profile_id\""
        case .qonversionEntitlements: return "is an array of entitlements"
        case .qonversionPermissions: return "has \"permissions\""
        case .qonversionEnvelope: return "has \"data.permissions\""
        case .googlePlaySubscription: return "has \"subscriptionState\" and \"lineItems\""
        case .stripeSubscription: return "is \"object\": \"subscription\""
        case .stripeList: return "is \"object\": \"list\" of subscriptions"
        case .stripeEvent: return "is a Stripe event (\"object\": \"event\", or \"id\", \"type\" and \"created\")"
        }
    }

    /// True when `value` passes this test. Only keys and kinds are looked at, never values,
    /// except Stripe's `object`, the type tag Stripe puts on every object it sends.
    func matches(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items):
            guard let first = items.first else { return false }
            switch self {
            case .appStoreTransactions:
                if case .string = first { return true }
                return first.objectValue?["transactionId"] != nil
            case .qonversionEntitlements:
                guard let object = first.objectValue, object["id"] != nil else { return false }
                return ["active", "renew_state", "store_transactions"].contains { object[$0] != nil }
            default: return false
            }
        case .object(let object):
            func has(_ key: String) -> Bool { object[key] != nil }
            let data = object["data"]?.objectValue
            switch self {
            case .appStoreTransaction: return has("transactionId")
            case .appStoreRenewalInfo: return (has("autoRenewStatus") || has("autoRenewProductId")) && !has("transactionId")
            case .appStoreNotification: return has("notificationType")
            case .appStoreSignedNotification: return has("signedPayload")
            case .appStoreStatuses:
                guard case .array? = object["data"] else { return false }
                return has("bundleId") || has("appAppleId")
            case .appStoreHistory: return has("signedTransactions")
            case .revenueCatSubscriber: return has("subscriber")
            case .adaptyProfile: return has("profile_id") || has("paid_access_levels")
            case .adaptyEnvelope:
                guard !has("notificationType"), let data else { return false }
                return data["profile_id"] != nil || data["paid_access_levels"] != nil
            case .qonversionPermissions: return has("permissions")
            case .qonversionEnvelope:
                guard !has("notificationType"), let data else { return false }
                return data["permissions"] != nil
            case .googlePlaySubscription: return has("subscriptionState") && has("lineItems")
            case .stripeSubscription: return object["object"] == .string("subscription")
            case .stripeList:
                guard object["object"] == .string("list"), case .array(let items)? = object["data"] else { return false }
                return items.first?.objectValue?["object"] == .string("subscription")
            case .stripeEvent:
                // Events of API versions before 2015 carry no `"object": "event"`: an `id`, a `type` and a `created` instead.
                guard case .object? = data?["object"] else { return false }
                if object["object"] == .string("event") { return true }
                guard object["object"] == nil, case .string? = object["type"], case .string? = object["id"], case .number? = object["created"] else { return false }
                return true
            default: return false
            }
        default:
            return false
        }
    }
}

/// Decides which vendor shape a document is, or says clearly why it cannot.
package enum FormatDetector {
    static let unknownShapeExpectation = """
        expected an App Store transaction, renewal info, notification, statuses or history document; \
        a RevenueCat subscriber response ({"subscriber": …}); an Adapty profile ({"profile_id": …}); \
        Qonversion entitlements ([{"id": …, "active": …}] or {"permissions": […]}); \
        a Google Play SubscriptionPurchaseV2 ({"subscriptionState": …, "lineItems": […]}); \
        or a Stripe subscription, list or event ({"object": "subscription"|"list"|"event"})
        """

    /// The one signature `value` matches, among `format`'s when given. Exit 2 otherwise.
    static func detect(_ value: JSONValue, format: Vendor?, file: String) throws(EntitlementError) -> DocumentSignature {
        // --format decides before detection does: a refusal by name is for the vendor named.
        if let refusal = UnsupportedShapes.refusal(value, file: file, format: format) { throw refusal }
        if let refusal = WebhookBodies.refusal(value, file: file, format: format) { throw refusal }
        if value.objectValue?.isEmpty == true {
            throw .usage("\(Terminal.escape(file)): an empty JSON object (Adapty posts one to check a webhook URL), not a document to import",
                         hint: "Import a profile or subscriber document (docs/import.md); `entitlement webhook` answers a save check.")
        }
        let candidates = DocumentSignature.allCases.filter { format == nil || $0.format == format }
        let matching = candidates.filter { $0.matches(value) }
        let name = Terminal.escape(file)
        if let format, matching.isEmpty {
            throw .usage("\(name): not a document in the \(format.rawValue) format: \(format.expectation)",
                         hint: "Check the file, or leave out --format to detect the format.")
        }
        guard let first = matching.first else {
            throw .usage("\(name): unknown document shape: \(unknownShapeExpectation)", hint: "Pass --format if the document is one of these.")
        }
        // With --format only that vendor's signatures are tried, which settles a cross-vendor ambiguity.
        if matching.count > 1 {
            let names = matching.map { "\($0.format.displayName) (\($0.evidence))" }
            let listed = names.count == 2 ? names.joined(separator: " and ")
                : names.dropLast().joined(separator: ", ") + " and " + names.last!
            throw .usage("\(name): ambiguous document: it looks like \(listed)", hint: "Pass --format.")
        }
        return first
    }
}

extension FormatDetector {
    /// What a document `import` reads is called ("RevenueCat subscriber"), nil when `value` is
    /// not exactly one vendor's document, or is one that is also an event (an App Store
    /// notification, a Stripe event): `ingest` and `webhook` name a document sent as an event.
    package static func documentName(_ value: JSONValue) -> String? {
        guard UnsupportedShapes.refusal(value, file: "") == nil, WebhookBodies.vendor(value) == nil else { return nil }
        let matching = DocumentSignature.allCases.filter { $0.matches(value) }
        guard matching.count == 1, let only = matching.first,
              ![.appStoreNotification, .appStoreSignedNotification, .stripeEvent].contains(only) else { return nil }
        return "\(only.format.displayName) \(only.shape.words)"
    }
}
