import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementImport

/// Google Play's Voided Purchases API, for `ingest --recover googleplay`:
/// `GET {base}/androidpublisher/v3/applications/{package_name}/purchases/voidedpurchases?startTime=…&endTime=…&type=1&maxResults=1000`
/// (milliseconds; type 1 lists voided subscriptions beside one-time products), following
/// `tokenPagination.nextPageToken` as `token=`, with the service account's bearer token. Each
/// entry (`purchaseToken`, `orderId`, `voidedTimeMillis`, …) becomes the event a
/// `voidedPurchaseNotification` makes (`PlayVoidedPurchase`). Google keeps 30 days.
package struct GooglePlayVoidedPurchases: Sendable {
    /// Pages followed at most (1,000,000 voided purchases in one window).
    static let maximumPages = 1000
    static let verification = "Google Play Developer API (service account)"

    package let client: VendorAPIClient
    package let base: String
    let packageName: String
    package let token: GoogleAccessToken

    package init(client: VendorAPIClient, base: String?, google: GooglePlayAPI) {
        self.client = client
        self.base = base ?? GooglePlaySource.defaultBase
        packageName = google.packageName
        token = google.token
    }

    /// Every purchase voided in [since, until), as events ready to apply; the requests made
    /// (Google's token included). Every page is fetched and read before anything is applied.
    package func units(since: Date, until: Date, receivedAt now: Date) throws(EntitlementError)
        -> (prepared: [(unit: IngestUnit, parsed: IngestRunner.ParsedUnit)], requests: Int) {
        let bearer = try token.bearer()
        var prepared: [(unit: IngestUnit, parsed: IngestRunner.ParsedUnit)] = []
        var requests = 1
        var next: String?
        var seen: Set<String> = []
        let path = "/androidpublisher/v3/applications/\(URLComponent.encoded(packageName))/purchases/voidedpurchases"
        let window = "startTime=\(Self.milliseconds(since))&endTime=\(Self.milliseconds(until))&type=1&maxResults=1000"
        for _ in 0..<Self.maximumPages {
            let url = URLComponent.join(base, "\(path)?\(window)" + (next.map { "&token=\(URLComponent.encoded($0))" } ?? ""))
            let body = try client.get(url, headers: [("Authorization", "Bearer \(bearer)"), ("Accept", "application/json")],
                                      credentialCheck: "that the service account has access to the app in Play Console (Users and permissions: view financial data) and googleplay.package_name")
            requests += 1
            let shown = URLText.withoutCredentials(url)
            guard case .object(let root)? = try? JSONParser.parse(body) else {
                throw .vendorAPI(.unexpectedAnswer(url: url, detail: "not a VoidedPurchasesListResponse object"))
            }
            let items: [JSONValue]
            switch root["voidedPurchases"] {
            case nil: items = []  // Google leaves the list out when it is empty
            case .array(let list)?: items = list
            default: throw .vendorAPI(.unexpectedAnswer(url: url, detail: "\"voidedPurchases\" is not a list"))
            }
            for (index, item) in items.enumerated() {
                guard let voided = Self.voided(item) else {
                    throw .vendorAPI(.unexpectedAnswer(url: url, detail: "voidedPurchases[\(index)] has no \"purchaseToken\" and \"voidedTimeMillis\""))
                }
                let request = WebhookRequest(vendor: .googleplay, body: JSONWriter(style: .compact, sortKeys: false).bytes(item), receivedAt: now, overHTTP: false)
                prepared.append((IngestUnit(source: .api("\(shown)#\(index)"), request: request), .events([voided.event(verification: Self.verification)])))
            }
            guard case .string(let following)? = root["tokenPagination"]?.objectValue?["nextPageToken"], !following.isEmpty else {
                return (prepared, requests)
            }
            guard seen.insert(following).inserted else { throw .vendorAPI(.unexpectedAnswer(url: url, detail: "the same nextPageToken twice")) }
            next = following
        }
        throw .vendorAPI(.unexpectedAnswer(url: URLComponent.join(base, path), detail: "more than \(Self.maximumPages) pages"))
    }

    /// One `VoidedPurchase`: the token, the order and the time (int64 as a decimal string, or a number).
    static func voided(_ item: JSONValue) -> PlayVoidedPurchase? {
        guard case .object(let object) = item, let token = object["purchaseToken"]?.stringValue, !token.isEmpty else { return nil }
        let millis: Double?
        switch object["voidedTimeMillis"] {
        case .string(let text)?: millis = Double(text)
        case .number(let text)?: millis = Double(text)
        default: millis = nil
        }
        guard let millis, let time = VendorDate.fromEpochMilliseconds(millis) else { return nil }
        return PlayVoidedPurchase(purchaseToken: token, orderID: object["orderId"]?.stringValue, voidedAt: time)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
