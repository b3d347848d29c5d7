import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Apple's Get Notification History (`POST /inApps/v1/notifications/history` with `startDate`
/// and `endDate` in milliseconds, then `?paginationToken=` while `hasMore`): each record's
/// `signedPayload` is the notification as the webhook would have received it, applied by
/// `ingest --recover appstore` through the webhook's adapter (verified, deduplicated by
/// `notificationUUID` against the ledger).
package struct AppStoreNotificationHistory: Sendable {
    package let session: AppStoreAPISession

    package init(session: AppStoreAPISession) { self.session = session }

    /// Every notification Apple sent, or tried to, in [since, until), as webhook units; the
    /// number of requests made. Pages are all fetched before anything is applied.
    package func units(since: Date, until: Date, receivedAt now: Date) throws(EntitlementError) -> (units: [IngestUnit], requests: Int) {
        let body = "{\"startDate\":\(Self.milliseconds(since)),\"endDate\":\(Self.milliseconds(until))}"
        var units: [IngestUnit] = []
        var requests = 0
        var token: String?
        var seen: Set<String> = []
        repeat {
            let path = "/inApps/v1/notifications/history" + (token.map { "?paginationToken=\(URLComponent.encoded($0))" } ?? "")
            let answer = try session.api.post(path, json: Array(body.utf8))
            requests += 1
            let shown = URLText.withoutCredentials(answer.url)
            guard case .object(let root)? = try? JSONParser.parse(answer.body), case .array(let records)? = root["notificationHistory"] else {
                throw .vendorAPI(.unexpectedAnswer(url: answer.url, detail: "no \"notificationHistory\" list"))
            }
            for (index, record) in records.enumerated() {
                guard case .string(let signed)? = record.objectValue?["signedPayload"] else {
                    throw .vendorAPI(.unexpectedAnswer(url: answer.url, detail: "notificationHistory[\(index)] has no \"signedPayload\" string"))
                }
                let envelope = JSONWriter(style: .compact).bytes(.object(JSONObject([("signedPayload", .string(signed))])))
                units.append(IngestUnit(source: .api("\(shown)#\(index)"), request: WebhookRequest(vendor: .appstore, body: envelope, receivedAt: now, overHTTP: false)))
            }
            token = try AppStoreRefresh.more(answer, token: "paginationToken")
            if let next = token, !seen.insert(next).inserted {
                throw .vendorAPI(.unexpectedAnswer(url: answer.url, detail: "the same paginationToken twice"))
            }
        } while token != nil
        return (units, requests)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
