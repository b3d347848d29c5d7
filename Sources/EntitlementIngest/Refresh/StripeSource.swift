import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Stripe's API: `GET {base}/v1/subscriptions?customer=cus_…&status=all&limit=100` with
/// `Authorization: Bearer <stripe.api_key>`, following `starting_after` (the last id of a page)
/// while `has_more`. Each page is the list of subscriptions `import` reads.
///
/// The customer's Stripe id is `--stripe-customer`, else the user id itself when it is one
/// (`cus_…`, as webhooks name customers), else the profile's `cus_…` alias.
struct StripeSource: RefreshSource {
    static let defaultBase = "https://api.stripe.com"
    /// Pages followed at most (10,000 subscriptions of one customer).
    static let maximumPages = 100
    var vendor: Vendor { .stripe }
    let client: VendorAPIClient
    let base: String
    let apiKey: String
    let customer: String?

    init(client: VendorAPIClient, base: String?, apiKey: String, customer: String?) {
        self.client = client
        self.base = base ?? Self.defaultBase
        self.apiKey = apiKey
        self.customer = customer
    }

    func ownNames(for user: String) -> Set<String> { customer.map { [$0] } ?? [user] }

    /// The Stripe customer id to ask for, or nil when nothing names one.
    func customerID(for user: String, stored: Profile?) -> String? {
        if let customer { return customer }
        if user.hasPrefix("cus_") { return user }
        return stored?.customerAliases.first { $0.hasPrefix("cus_") }
    }

    func documents(for user: String, stored: Profile?) throws(EntitlementError) -> [APIDocument] {
        guard let customer = customerID(for: user, stored: stored) else {
            throw .usage("\(Terminal.escape(user)) has no Stripe customer id (cus_…) among its aliases.",
                         hint: "Pass --stripe-customer cus_… (Stripe's customer id for this user).")
        }
        var documents: [APIDocument] = []
        var after: String?
        var seen = Set<String>()
        for _ in 0..<Self.maximumPages {
            var path = "/v1/subscriptions?customer=\(URLComponent.encoded(customer))&status=all&limit=100"
            if let after { path += "&starting_after=\(URLComponent.encoded(after))" }
            let url = URLComponent.join(base, path)
            let body = try client.get(url, headers: [("Authorization", "Bearer \(apiKey)"), ("Accept", "application/json")],
                                      credentialCheck: "stripe.api_key (a secret or restricted key, sk_… or rk_…, with read access to subscriptions)")
            let page = try Self.page(body, url: url)
            documents.append(APIDocument(bytes: body, format: .stripe, name: URLText.withoutCredentials(url)))
            guard page.hasMore else { return documents }
            guard let last = page.lastID, seen.insert(last).inserted else {
                throw .vendorAPI(.unexpectedAnswer(url: url, detail: "has_more is true but the page gives no new last id to start after"))
            }
            after = last
        }
        throw .vendorAPI(.unexpectedAnswer(url: URLComponent.join(base, "/v1/subscriptions"), detail: "more than \(Self.maximumPages) pages"))
    }

    /// A list page's `has_more` and the id of its last item.
    static func page(_ body: [UInt8], url: String) throws(EntitlementError) -> (hasMore: Bool, lastID: String?) {
        guard case .object(let object)? = try? JSONParser.parse(body), object["object"]?.stringValue == "list",
              case .array(let items)? = object["data"], case .bool(let hasMore)? = object["has_more"] else {
            throw .vendorAPI(.unexpectedAnswer(url: url, detail: "not a list of subscriptions (\"object\": \"list\", \"data\", \"has_more\")"))
        }
        return (hasMore, items.last?.objectValue?["id"]?.stringValue)
    }
}
