import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// Stripe's List all events (`GET /v1/events?created[gte]=…&created[lt]=…&types[]=…`,
/// following `starting_after` while `has_more`), for `ingest --recover stripe`: the event
/// types the webhook reads, applied through its adapter in `created` order, deduplicated by
/// event id against the ledger. Stripe keeps events for 30 days.
package struct StripeEventHistory: Sendable {
    /// The types the webhook reads (`StripeEventMapper`): the subscription's own, the invoice
    /// events it records, and refunds.
    static let types = [
        "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
        "customer.subscription.paused", "customer.subscription.resumed", "customer.subscription.trial_will_end",
        "invoice.paid", "invoice.payment_failed", "charge.refunded",
    ]

    package let client: VendorAPIClient
    package let base: String
    let apiKey: String

    /// `apiKey`: `stripe.api_key`, read as `refresh --vendor stripe` reads it (`RefreshSources.apiKey`).
    package init(client: VendorAPIClient, apiBase: String?, apiKey: String) {
        self.client = client
        self.base = apiBase ?? StripeSource.defaultBase
        self.apiKey = apiKey
    }

    /// The events created in [since, until), oldest first, as webhook units; the requests made.
    package func units(since: Date, until: Date, receivedAt now: Date) throws(EntitlementError) -> (units: [IngestUnit], requests: Int) {
        var query = "created%5Bgte%5D=\(Int64(since.timeIntervalSince1970.rounded(.up)))&created%5Blt%5D=\(Int64(until.timeIntervalSince1970.rounded(.up)))&limit=100"
        for type in Self.types { query += "&types%5B%5D=\(URLComponent.encoded(type))" }
        var events: [(created: Int64, order: Int, id: String, body: [UInt8], url: String)] = []
        var requests = 0
        var after: String?
        var seen: Set<String> = []
        repeat {
            let url = URLComponent.join(base, "/v1/events?\(query)" + (after.map { "&starting_after=\(URLComponent.encoded($0))" } ?? ""))
            let body = try client.send(APIRequest(.get, url, headers: [("Authorization", "Bearer \(apiKey)")], credentialCheck: "stripe.api_key (a secret or restricted key with read access to events)"))
            requests += 1
            guard case .object(let root)? = try? JSONParser.parse(body), case .array(let items)? = root["data"] else {
                throw .vendorAPI(.unexpectedAnswer(url: url, detail: "not a list of events (no \"data\")"))
            }
            for item in items {
                guard case .object(let event) = item, case .string(let id)? = event["id"], case .number(let created)? = event["created"],
                      let seconds = Int64(created) else {
                    throw .vendorAPI(.unexpectedAnswer(url: url, detail: "an event without \"id\" and \"created\""))
                }
                guard seen.insert(id).inserted else { continue }
                events.append((seconds, events.count, id, JSONWriter(style: .compact, sortKeys: false).bytes(item), url))
            }
            guard case .bool(true)? = root["has_more"] else { break }
            guard case .object(let last)? = items.last, case .string(let lastID)? = last["id"] else {
                throw .vendorAPI(.unexpectedAnswer(url: url, detail: "has_more is true but the page is empty"))
            }
            after = lastID
        } while true
        // Stripe lists newest first: created ascending, and within a second the older listed first.
        let ordered = events.sorted { $0.created != $1.created ? $0.created < $1.created : $0.order > $1.order }
        let units = ordered.map { event in
            IngestUnit(source: .api("\(URLText.withoutCredentials(event.url)) \(event.id)"),
                       request: WebhookRequest(vendor: .stripe, body: event.body, receivedAt: now, overHTTP: false))
        }
        return (units, requests)
    }
}
