import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementTrust

/// A signed App Store Server API answer (Get All Subscription Statuses, a page of Get
/// Transaction History, Look Up Order ID) in the store's terms: every JWS verified as `import`
/// verifies it (roots, chain, identity), mapped as `import` maps the same document, and made one
/// event for the webhook's path (ledger, order, journal).
///
/// The event's id is the digest of the signed payloads without their `signedDate` (Apple signs
/// each answer anew), so the same state asked twice is a duplicate in the ledger and changes
/// nothing; its time is the newest `signedDate`, so a notification older than what the API
/// said never moves a record back (docs/ingest.md, "Order").
package struct AppStoreAnswer: Sendable {
    var url: String
    var body: [UInt8]
    package var document: ImportDocument

    /// Verifies and maps `body`; exit 4 naming the URL when it is not the documented shape or a
    /// signature is refused, so nothing of it is written.
    init(_ body: [UInt8], url: String, verifier: AppStoreSignedDataVerifier?) throws(EntitlementError) {
        self.url = url
        self.body = body
        guard let verifier else {
            throw .vendorAPI(.unexpectedAnswer(url: url, detail: "no App Store verifier: the secrets file's appstore entry is unusable"))
        }
        do throws(EntitlementError) {
            document = try DocumentMapper.map(body, file: url, format: .appstore, jws: JWSReader(verifier: verifier))
        } catch {
            throw .vendorAPI(.unexpectedAnswer(url: url, detail: error.description))
        }
        document.warnings.removeAll { $0.hasPrefix("hasMore is true") }
    }

    /// The original transaction ids the answer names.
    var originalTransactionIDs: [String] {
        Array(Set(document.transactions.map(\.transaction.originalTransactionID) + document.renewals.map(\.originalTransactionID))).sorted()
    }

    /// The answer's event for `customer` (nil: the one its single `appAccountToken` names, else
    /// whoever holds its original transactions); nil when it carries no record.
    package func event(customer: String?, type: String, now: Date) -> IngestEvent? {
        guard document.hasProfileData else { return nil }
        var effects = EventEffects(document: document)
        let holder = customer ?? (document.appAccountTokens.count == 1 ? document.appAccountTokens[0] : nil)
        if holder == nil { effects.holderOf = originalTransactionIDs }
        return IngestEvent(vendor: .appstore, id: Self.eventID(body), type: type, time: document.time ?? now, customer: holder,
                           effects: effects, verification: "jws verified (App Store Server API)")
    }

    /// The unit an answer's event is applied as, received at `now`.
    package func unit(receivedAt now: Date) -> IngestUnit {
        IngestUnit(source: .api(URLText.withoutCredentials(url)), request: WebhookRequest(vendor: .appstore, body: body, receivedAt: now, overHTTP: false))
    }

    /// `api-` and the SHA-256 of the answer's signed payloads, each without `signedDate`, sorted.
    static func eventID(_ body: [UInt8]) -> String {
        var payloads: [String] = []
        if let root = try? JSONParser.parse(body) { collect(root, into: &payloads) }
        let writer = JSONWriter(style: .compact, sortKeys: true)
        let lines = payloads.compactMap { text -> String? in
            guard var object = JWS.payload(of: text) else { return nil }
            object["signedDate"] = nil
            return writer.string(.object(object))
        }.sorted()
        return "api-" + SHA256.hexDigest(Array(lines.joined(separator: "\n").utf8))
    }

    private static func collect(_ value: JSONValue, into out: inout [String]) {
        switch value {
        case .object(let object):
            for (key, child) in object.entries {
                if case .string(let text) = child, key.hasPrefix("signed"), JWS.looksLikeJWS(text) { out.append(text) }
                if key == "signedTransactions", case .array(let items) = child {
                    for case .string(let text) in items where JWS.looksLikeJWS(text) { out.append(text) }
                }
                collect(child, into: &out)
            }
        case .array(let items):
            for item in items { collect(item, into: &out) }
        default:
            break
        }
    }
}
