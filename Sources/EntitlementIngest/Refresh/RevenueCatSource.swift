import EntitlementBasics
import EntitlementModel

/// RevenueCat's REST API: `GET {base}/v1/subscribers/{app_user_id}` with
/// `Authorization: Bearer <revenuecat.api_key>`; the answer is the subscriber document `import` reads.
struct RevenueCatSource: RefreshSource {
    static let defaultBase = "https://api.revenuecat.com"
    var vendor: Vendor { .revenuecat }
    let client: VendorAPIClient
    let base: String
    let apiKey: String

    init(client: VendorAPIClient, base: String?, apiKey: String) {
        self.client = client
        self.base = base ?? Self.defaultBase
        self.apiKey = apiKey
    }

    /// The subscriber's URL: the id percent-encoded as one path segment, so `a/b` or `..` stay an id.
    func url(for user: String) -> String { URLComponent.join(base, "/v1/subscribers/\(URLComponent.encoded(user))") }

    func documents(for user: String, stored: Profile?) throws(EntitlementError) -> [APIDocument] {
        let url = url(for: user)
        let authorization = apiKey.hasPrefix("Bearer ") ? apiKey : "Bearer \(apiKey)"
        let body = try client.get(url, headers: [("Authorization", authorization), ("Accept", "application/json")],
                                  credentialCheck: "revenuecat.api_key (a secret key, sk_…)")
        return [APIDocument(bytes: body, format: .revenuecat, name: URLText.withoutCredentials(url))]
    }
}
