import Foundation
import Synchronization
@testable import EntitlementBasics

/// Answers of the App Store Server API in the shapes of ../shared/vendor-events/appstore/api-responses/
/// (getAllSubscriptionStatusesResponse, transactionHistoryResponse, lookupOrderIdResponse,
/// getNotificationHistoryResponse), signed with the test chain of `IngestFixtures`.
enum AppStoreAPIFixtures {
    typealias F = IngestFixtures

    /// The run's clock: day 20 after `IngestFixtures.base`; the JWT's `iat` is this.
    static let now = Date(timeIntervalSince1970: Double(F.base) / 1000 + 20 * 86_400)
    static var nowSeconds: Int64 { Int64(now.timeIntervalSince1970) }

    /// A signed transaction: `id` of `original`, bought on day `purchased`, expiring on day `expires`, signed on day `signed`.
    static func transaction(_ id: String, original: String = "1000", purchased: Int64 = 0, expires: Int64 = 30, signed: Int64 = 20,
                            token: String? = nil) -> String {
        var payload: [String: Any] = [
            "transactionId": id, "originalTransactionId": original, "productId": "monthly", "purchaseDate": F.base + purchased * F.day,
            "originalPurchaseDate": F.base, "expiresDate": F.base + expires * F.day, "type": "Auto-Renewable Subscription",
            "inAppOwnershipType": "PURCHASED", "environment": "Production", "signedDate": F.base + signed * F.day, "bundleId": "com.example",
        ]
        if let token { payload["appAccountToken"] = token }
        return F.jws(payload)
    }

    static func renewal(original: String = "1000", signed: Int64 = 20) -> String {
        F.jws(["originalTransactionId": original, "autoRenewStatus": 1, "autoRenewProductId": "monthly", "productId": "monthly",
               "signedDate": F.base + signed * F.day, "environment": "Production"])
    }

    static func statuses(original: String = "1000", status: Int = 1, transaction: String, renewal: String) -> String {
        F.json(["environment": "Production", "bundleId": "com.example", "data": [[
            "subscriptionGroupIdentifier": "21000000", "lastTransactions": [[
                "originalTransactionId": original, "status": status, "signedTransactionInfo": transaction, "signedRenewalInfo": renewal,
            ]],
        ]]])
    }

    static func history(_ transactions: [String], revision: String, hasMore: Bool) -> String {
        F.json(["revision": revision, "bundleId": "com.example", "environment": "Production", "hasMore": hasMore, "signedTransactions": transactions])
    }

    static func lookup(_ transactions: [String]) -> String { F.json(["status": 0, "signedTransactions": transactions]) }

    static func notificationHistory(_ bodies: [String], token: String?) -> String {
        let records: [[String: Any]] = bodies.map { body in
            let payload = (try! JSONSerialization.jsonObject(with: Data(body.utf8)) as! [String: Any])["signedPayload"]!
            return ["signedPayload": payload, "sendAttemptResult": [["attemptDate": F.base, "sendAttemptResult": "SUCCESS"]]]
        }
        var object: [String: Any] = ["notificationHistory": records, "hasMore": token != nil]
        if let token { object["paginationToken"] = token }
        return F.json(object)
    }

    /// A pacing that never sleeps: it records the waits and moves its clock by them.
    final class RecordedPacing: Sendable {
        let waits = Mutex<[Double]>([])
        var pacing: Pacing {
            Pacing(now: { [self] in waits.withLock { $0.reduce(0, +) } }, sleep: { [self] seconds in waits.withLock { $0.append(seconds) } })
        }
        var recorded: [Double] { waits.withLock { $0 } }
    }
}
