import FoundationEssentials
import EntitlementJSON
import EntitlementModel

/// Google Play real-time developer notifications through a Pub/Sub push (docs/ingest.md,
/// "Google Play"). Authenticated by the push token of the secrets file, given in the push
/// URL (`…/googleplay?token=…`, CGI's `QUERY_STRING`) or as `Authorization: Bearer …`.
/// Deduplicated on `message.messageId` (a voided purchase on its order id, `PlayVoidedPurchase`),
/// ordered by `eventTimeMillis`.
struct GooglePlayAdapter: VendorAdapter {
    let vendor = Vendor.googleplay

    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication {
        guard request.overHTTP else { return .accepted(WebhookAuthenticator.localInput) }
        var probe = request
        if let bearer = request.headers["authorization"], bearer.hasPrefix("Bearer ") {
            probe.headers[WebhookRequest.queryTokenHeader] = String(bearer.dropFirst("Bearer ".count))
        }
        return authenticator.requireHeader(probe, header: WebhookRequest.queryTokenHeader, vendor: vendor, secretKey: "push_token")
    }

    func recognizes(_ root: JSONValue) -> Bool {
        guard let message = root.objectValue?["message"]?.objectValue else { return false }
        return message["data"] != nil && message["messageId"] != nil
    }

    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent] {
        let root = try EventBody.object(request.body, vendor: vendor)
        do throws(FieldError) {
            let notification = try PlayNotification(envelope: root)
            let verification = authenticator.verification(of: request, header: "push token")
            // A refund revokes, by the id `ingest --recover googleplay` gives the same voided purchase.
            if case .voided(let orderID) = notification.kind, let token = notification.purchaseToken {
                return [PlayVoidedPurchase(purchaseToken: token, orderID: orderID, voidedAt: notification.time).event(verification: verification)]
            }
            return [IngestEvent(vendor: vendor, id: notification.messageID, type: notification.type, time: notification.time, customer: nil,
                                effects: notification.effects, verification: verification)]
        } catch {
            throw .malformed(error.description)
        }
    }
}
