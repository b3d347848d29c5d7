import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The Google Play Developer API: for each purchase token in the customer's profile,
/// `GET {base}/androidpublisher/v3/applications/{package_name}/purchases/subscriptionsv2/tokens/{token}`
/// with the service account's bearer token. The answer is the `SubscriptionPurchaseV2` that
/// `import` reads, with the token added as `purchaseToken` (Google's answer does not repeat it).
struct GooglePlaySource: RefreshSource {
    static let defaultBase = "https://androidpublisher.googleapis.com"
    var vendor: Vendor { .googleplay }
    let client: VendorAPIClient
    let base: String
    let packageName: String
    let token: GoogleAccessToken
    /// `--purchase-token`: asked for as well as those in the profile.
    let extraTokens: [String]

    init(client: VendorAPIClient, base: String?, packageName: String, token: GoogleAccessToken, extraTokens: [String] = []) {
        self.client = client
        self.base = base ?? Self.defaultBase
        self.packageName = packageName
        self.token = token
        self.extraTokens = extraTokens
    }

    /// The profile's Play purchase tokens (`vendor.googleplay.purchase_token`, else the
    /// transaction id), each once, in the profile's order.
    static func purchaseTokens(of profile: Profile?) -> [String] {
        var tokens: [String] = []
        for transaction in profile?.transactions ?? [] where transaction.store == .playStore {
            let token = PlayRevocation.token(of: transaction)
            if !token.isEmpty, !tokens.contains(token) { tokens.append(token) }
        }
        return tokens
    }

    func documents(for user: String, stored: Profile?) throws(EntitlementError) -> [APIDocument] {
        var tokens = extraTokens
        for token in Self.purchaseTokens(of: stored) where !tokens.contains(token) { tokens.append(token) }
        guard !tokens.isEmpty else {
            throw .usage("\(Terminal.escape(user))'s profile holds no Google Play purchase token to ask about.",
                         hint: "Pass --purchase-token TOKEN (from the app or a notification).")
        }
        let bearer = try token.bearer()
        var documents: [APIDocument] = []
        for purchase in tokens {
            let url = URLComponent.join(base, "/androidpublisher/v3/applications/\(URLComponent.encoded(packageName))/purchases/subscriptionsv2/tokens/\(URLComponent.encoded(purchase))")
            let shown = URLText.withoutCredentials(url)
            let body = try client.get(url, headers: [("Authorization", "Bearer \(bearer)"), ("Accept", "application/json")],
                                      credentialCheck: "that the service account has access to the app in Play Console (Users and permissions: view financial data) and googleplay.package_name")
            guard case .object(var object)? = try? JSONParser.parse(body) else {
                throw .vendorAPI(.unexpectedAnswer(url: url, detail: "not a SubscriptionPurchaseV2 object"))
            }
            if object["purchaseToken"] == nil { object["purchaseToken"] = .string(purchase) }
            documents.append(APIDocument(bytes: Array(JSONWriter(style: .compact).string(.object(object)).utf8), format: .googleplay, name: shown))
        }
        return documents
    }
}
