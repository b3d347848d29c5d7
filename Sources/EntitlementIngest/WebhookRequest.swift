import FoundationEssentials
import EntitlementModel

/// One delivery as the web server handed it over: the body, the request headers and when it
/// arrived. Built from CGI variables (`webhook`), a spool record, or a file (`ingest --from`).
package struct WebhookRequest: Sendable, Equatable {
    package var vendor: Vendor
    package var body: [UInt8]
    /// Header names in lower case with `-` (`authorization`, `stripe-signature`).
    package var headers: [String: String]
    package var receivedAt: Date
    /// True when the request came over HTTP; local input (`ingest --from`, `--stdin`) carries
    /// no headers and the operator vouches for it (App Store data is still verified).
    package var overHTTP: Bool

    package init(vendor: Vendor, body: [UInt8], headers: [String: String] = [:], receivedAt: Date, overHTTP: Bool) {
        self.vendor = vendor
        self.body = body
        self.headers = headers
        self.receivedAt = receivedAt
        self.overHTTP = overHTTP
    }

    /// Headers that carry credentials: never spooled, logged or committed.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", queryTokenHeader]

    /// The `token` parameter of the request URL (Google Play's Pub/Sub push token), kept with
    /// the headers under this name so that it is a credential like them: never spooled.
    static let queryTokenHeader = "query-token"

    /// The headers without credentials: what a spool record keeps.
    var recordableHeaders: [String: String] {
        headers.filter { !Self.credentialHeaders.contains($0.key) }
    }

    /// The request headers in CGI's `HTTP_*` variables (RFC 3875, 4.1.18), plus `CONTENT_TYPE`.
    package static func headers(fromCGI environment: [String: String]) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix("HTTP_") {
            headers[String(name.dropFirst(5).lowercased().map { $0 == "_" ? "-" : $0 })] = value
        }
        if let type = environment["CONTENT_TYPE"] { headers["content-type"] = type }
        for pair in (environment["QUERY_STRING"] ?? "").split(separator: "&") where pair.hasPrefix("token=") {
            headers[queryTokenHeader] = String(pair.dropFirst("token=".count))
        }
        return headers
    }
}
