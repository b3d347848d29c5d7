import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementTrust

/// Stripe webhooks: an event object behind `Stripe-Signature` (docs/ingest.md, "Stripe").
/// Deduplicated on the event `id`, ordered by `created`.
struct StripeAdapter: VendorAdapter {
    let vendor = Vendor.stripe
    /// How old a signature's timestamp may be (Stripe's libraries' default).
    static let tolerance: Int64 = 300

    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication {
        guard request.overHTTP else { return .accepted(WebhookAuthenticator.localInput) }
        let secrets = authenticator.secrets?.strings(vendor, "signing_secrets") ?? []
        guard !secrets.isEmpty else {
            return .refused(status: 403, log: "stripe: no stripe.signing_secrets in \(authenticator.secrets?.path ?? "the secrets file"); request refused")
        }
        guard let header = request.headers["stripe-signature"] else {
            return .refused(status: 401, log: "stripe: request without a Stripe-Signature header; refused")
        }
        let verdict = StripeSignature.verify(header: header, payload: request.body, secrets: secrets,
                                             now: Int64(request.receivedAt.timeIntervalSince1970.rounded(.down)), tolerance: Self.tolerance)
        guard verdict == .valid else { return .refused(status: 403, log: "stripe: \(verdict); refused") }
        return .accepted("stripe-signature header")
    }

    /// An event object; events of API versions before 2015 carry no `"object": "event"`, only
    /// their `id`, `type`, `created` and `data.object`.
    func recognizes(_ root: JSONValue) -> Bool {
        guard let object = root.objectValue, object["type"] != nil, object["id"] != nil, object["data"]?.objectValue?["object"] != nil else { return false }
        if object["object"] == .string("event") { return true }
        guard object["object"] == nil, case .number? = object["created"] else { return false }
        return true
    }

    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent] {
        let root = try EventBody.object(request.body, vendor: vendor)
        guard recognizes(.object(root)) else { throw .malformed("a Stripe event needs \"id\", \"type\", \"created\" and \"data.object\" (and \"object\": \"event\" when it has an \"object\")") }
        let verification = authenticator.verification(of: request, header: "stripe-signature header")
        do throws(FieldError) {
            let r = FieldReader(root, path: "")
            let id = try r.vendorID(StripeKey.id)
            let type = try r.vendorID(StripeKey.type)
            let time = try r.vendorRequiredEpochSeconds(StripeKey.created)
            guard let object = try r.vendorObject(StripeKey.data)?.vendorObject(StripeKey.object) else { throw r.vendorMissing(StripeKey.data) }
            let (effects, customer) = try StripeEventMapper.effects(type: type, object: object, time: time)
            return [IngestEvent(vendor: vendor, id: id, type: type, time: time, customer: customer, effects: effects, verification: verification)]
        } catch {
            throw .malformed(error.description)
        }
    }
}
