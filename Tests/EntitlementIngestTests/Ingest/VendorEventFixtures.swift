import Foundation
@testable import EntitlementBasics

/// Adapty and Qonversion webhook bodies, the project's own, written from the fields the
/// vendors document (../shared/vendor-events/README.md); no vendor sample is copied.
extension IngestFixtures {
    static let adaptySecret = "adapty-secret"
    static let qonversionSecret = "Basic q-secret"

    /// `base` plus `days`, as Adapty writes dates (`2026-01-01T00:00:00.000000+0000`).
    static func adaptyDate(_ days: Double) -> String {
        let text = ISODate.format(Date(timeIntervalSince1970: Double(base) / 1000 + days * 86_400))
        return String(text.dropLast()) + ".000000+0000"
    }

    /// An Adapty webhook body; `properties` adds or overrides event properties (NSNull removes one).
    static func adapty(_ type: String, id: String, at offset: Double, user: String? = "alice", transaction: String = "t1",
                       original: String = "t1", purchasedAt: Double = 0, expiresAt: Double? = 30, properties: [String: Any] = [:]) -> String {
        var event: [String: Any] = [
            "profile_event_id": id, "store": "app_store", "vendor_product_id": "monthly", "transaction_id": transaction,
            "original_transaction_id": original, "purchase_date": adaptyDate(purchasedAt), "environment": "Production",
            "price_local": 9.99, "currency": "USD", "event_datetime": adaptyDate(offset),
        ]
        if let expiresAt { event["subscription_expires_at"] = adaptyDate(expiresAt) }
        for (key, value) in properties { event[key] = value is NSNull ? nil : value }
        var body: [String: Any] = ["profile_id": "5f1c-adapty-alice", "event_type": type, "event_datetime": adaptyDate(offset),
                                   "event_properties": event, "event_api_version": 1]
        if let user { body["customer_user_id"] = user }
        return json(body)
    }

    /// Adapty's `access_level_updated` for `premium`: the level's whole state.
    static func adaptyAccessLevel(id: String, at offset: Double, active: Bool, expiresAt: Double?, transaction: String? = "t1",
                                  extra: [String: Any] = [:]) -> String {
        var level: [String: Any] = [
            "access_level_id": "premium", "is_active": active, "activated_at": adaptyDate(0), "will_renew": active,
            "is_lifetime": expiresAt == nil, "is_refund": false, "is_in_grace_period": false, "store": "app_store",
            "vendor_product_id": "monthly",
        ]
        if let expiresAt { level["expires_at"] = adaptyDate(expiresAt) }
        if let transaction { level["vendor_transaction_id"] = transaction; level["vendor_original_transaction_id"] = "t1" }
        for (key, value) in extra { level[key] = value is NSNull ? nil : value }
        return adapty("access_level_updated", id: id, at: offset, properties: level)
    }

    /// A Qonversion webhook body; times are `base` plus days, in seconds.
    static func qonversion(_ type: String, at offset: Double, user: String = "alice", transaction: Int? = 500, original: Int = 500,
                           purchasedAt: Double? = nil, expiresAt: Double? = 30, extra: [String: Any] = [:]) -> String {
        func seconds(_ days: Double) -> Int { Int(Double(base) / 1000 + days * 86_400) }
        var body: [String: Any] = [
            "event_name": type, "user_id": "QON_\(user)", "custom_user_id": user, "time": seconds(offset), "product_id": "monthly",
            "environment": "production", "platform": "iOS", "price": ["value": 9.99, "currency": "USD"],
        ]
        if let transaction {
            var record: [String: Any] = ["transaction_id": transaction, "original_transaction_id": original]
            if let expiresAt { record["expires"] = seconds(expiresAt) }
            if let purchasedAt { record["transaction_date"] = seconds(purchasedAt) }
            body["transaction"] = record
        }
        for (key, value) in extra { body[key] = value is NSNull ? nil : value }
        return json(body)
    }
}
