import FoundationEssentials
import EntitlementImport
import EntitlementJSON
import EntitlementModel

/// App Store Server Notifications V2: `{"signedPayload": JWS}` (docs/ingest.md, "App Store").
///
/// No secret: every JWS is verified against Apple's root by `WebhookAuthenticator`. The signed
/// transaction and renewal info are the subscription's state at `signedDate`, so each
/// notification is merged as `import` merges it, and its type only names the event.
struct AppStoreAdapter: VendorAdapter {
    typealias K = AppleKey
    let vendor = Vendor.appstore

    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication {
        .accepted("signed data")
    }

    func recognizes(_ root: JSONValue) -> Bool { root.objectValue?[K.signedPayload] != nil }

    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent] {
        let root = try EventBody.object(request.body, vendor: vendor)
        guard case .string(let signed)? = root[K.signedPayload] else {
            throw .malformed("an App Store notification needs a \"signedPayload\" string")
        }
        let malformed = EventRejection.malformed("signedPayload is not a JWS with a JSON payload")
        guard JWS.looksLikeJWS(signed) else { throw malformed }
        // The notification's own signature, checked once; its payload is what the mapper reads.
        // Each nested JWS is verified as the mapper reads it, by the same verifier, with the
        // rules `import` follows (docs/ingest.md, "App Store").
        let verification: String
        let payload: JSONObject
        do throws(EventRejection) {
            let verified = try authenticator.verifiedAppStoreJWS(signed)
            guard case .object(let object)? = try? JSONParser.parse(verified.payload, allowTrailingCommas: true) else { throw malformed }
            (verification, payload) = (verified.verification, object)
        } catch {
            // A body that is no JWS of a JSON payload is malformed (400), not forged (403).
            if JWS.payload(of: signed) == nil { throw malformed }
            throw error
        }
        do throws(FieldError) {
            let reader = FieldReader(payload, path: "signedPayload")
            let id = try reader.vendorID("notificationUUID")
            var document = ImportDocument(format: .appstore, shape: .notification)
            try AppStoreMapper.notification(reader, jws: JWSReader(verifier: authenticator.appStore), into: &document)
            // Without `signedDate` a notification is judged, and ordered, at the time it arrived,
            // as `import` judges it at the run's time and Apple's libraries at "now".
            let time = document.time ?? request.receivedAt
            let type = document.detail ?? "notification"
            var effects: EventEffects = document.hasProfileData ? EventEffects(document: document)
                : .none("\(type) carries no customer data")
            let customer = document.appAccountTokens.count == 1 ? document.appAccountTokens[0] : nil
            if customer == nil, document.hasProfileData {
                // No token: the customer is whoever holds the original transaction (AppStoreCustomerIndex).
                effects.holderOf = Array(Set(document.transactions.map(\.transaction.originalTransactionID) + document.renewals.map(\.originalTransactionID))).sorted()
            }
            return [IngestEvent(vendor: vendor, id: id, type: type, time: time, customer: customer, effects: effects, verification: verification)]
        } catch {
            if error.refusedSignature { throw .unauthenticated("signed data refused: \(error.description)") }
            throw .malformed(error.description)
        }
    }
}

/// Reading a webhook body: JSON (UTF-8) with an object at the top.
enum EventBody {
    static func object(_ body: [UInt8], vendor: Vendor) throws(EventRejection) -> JSONObject {
        guard !body.isEmpty else { throw .malformed("the body is empty") }
        let root: JSONValue
        do {
            root = try JSONParser.parse(body)
        } catch {
            throw .malformed("invalid JSON at \(error.description)")
        }
        guard case .object(let object) = root else { throw .malformed("a \(vendor.displayName) event is a JSON object") }
        return object
    }
}
