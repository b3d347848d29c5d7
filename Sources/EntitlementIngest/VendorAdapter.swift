import EntitlementJSON
import EntitlementModel

/// One vendor's webhook: how its requests authenticate and what its bodies mean.
///
/// A vendor is one file that conforms, plus one row in `VendorTable`. The adapter is pure:
/// secrets and signature checks come in through `WebhookAuthenticator`, the time in the request.
protocol VendorAdapter: Sendable {
    var vendor: Vendor { get }
    /// Checks the request's credentials (headers) before anything else. Local input
    /// (`overHTTP` false) carries none; adapters then answer `.localInput`.
    func authenticate(_ request: WebhookRequest, with authenticator: WebhookAuthenticator) -> Authentication
    /// The events in a body: none for a ping (Adapty's `{}` on save), several for a batch.
    /// Throws for a body that is not a well-formed event of this vendor (HTTP 400), or whose
    /// signed data does not verify (403).
    func events(in request: WebhookRequest, with authenticator: WebhookAuthenticator) throws(EventRejection) -> [IngestEvent]
    /// True when `root` has this vendor's event shape (`ingest --from`/`--stdin` without `--vendor`).
    func recognizes(_ root: JSONValue) -> Bool
}

/// The outcome of checking a request's credentials.
enum Authentication: Sendable, Equatable {
    /// Accepted; the text says how (`authorization header`), for the audit record.
    case accepted(String)
    /// Refused with 401 (no credentials) or 403 (wrong, or none configured); `log` is the one
    /// line written for the operator (never the credential itself).
    case refused(status: Int, log: String)
}

/// Why a body is refused.
enum EventRejection: Error, Sendable, Equatable {
    /// Not a well-formed event of the vendor: HTTP 400, exit 2.
    case malformed(String)
    /// Signed data that does not verify: HTTP 403, counted unauthenticated.
    case unauthenticated(String)

    var message: String {
        switch self {
        case .malformed(let text), .unauthenticated(let text): return text
        }
    }
}

/// The vendors served, one row each; a vendor not listed is answered 404 by `webhook`.
enum VendorTable {
    static let adapters: [any VendorAdapter] = [
        AppStoreAdapter(), RevenueCatAdapter(), AdaptyAdapter(), QonversionAdapter(), StripeAdapter(), GooglePlayAdapter(),
    ]

    static func adapter(for vendor: Vendor) -> (any VendorAdapter)? {
        adapters.first { $0.vendor == vendor }
    }

    /// The adapter whose shape `root` has, when exactly one does.
    static func detect(_ root: JSONValue) -> (any VendorAdapter)? {
        let matching = adapters.filter { $0.recognizes(root) }
        return matching.count == 1 ? matching[0] : nil
    }
}
