import EntitlementBasics
import EntitlementModel

/// Adapty's server-side API: `GET {base}/api/v2/server-side-api/profile/` with
/// `Authorization: Api-Key <adapty.api_key>` and the customer in `adapty-customer-user-id`;
/// the answer's `data` is the profile document `import` reads.
struct AdaptySource: RefreshSource {
    static let defaultBase = "https://api.adapty.io"
    var vendor: Vendor { .adapty }
    let client: VendorAPIClient
    let base: String
    let apiKey: String

    init(client: VendorAPIClient, base: String?, apiKey: String) {
        self.client = client
        self.base = base ?? Self.defaultBase
        self.apiKey = apiKey
    }

    func documents(for user: String, stored: Profile?) throws(EntitlementError) -> [APIDocument] {
        let url = URLComponent.join(base, "/api/v2/server-side-api/profile/")
        guard VendorAPIClient.isHeaderSafe(user) else {
            throw .usage("the user id holds a control character; Adapty's adapty-customer-user-id header cannot carry it.", command: "refresh")
        }
        let body = try client.get(url, headers: [("Authorization", "Api-Key \(apiKey)"), ("adapty-customer-user-id", user), ("Accept", "application/json")],
                                  credentialCheck: "adapty.api_key (the secret API key, secret_live_…, from App settings)")
        return [APIDocument(bytes: body, format: .adapty, name: URLText.withoutCredentials(url))]
    }
}
