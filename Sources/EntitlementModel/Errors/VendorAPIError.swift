import EntitlementBasics

/// Why a vendor's API (RevenueCat's `GET /v1/subscribers/{id}`, for `refresh`) gave nothing
/// to import. Shown by `EntitlementError.vendorAPI`; compared with `==` in tests.
///
/// The URL in each case never holds a secret: the API key travels in a header only.
package enum VendorAPIError: Error, Equatable, Sendable {
    /// The secrets file has no API key for the vendor (`key`, e.g. `revenuecat.api_key`).
    case missingKey(key: String, file: String)
    /// The key cannot be sent as a header value (a control character or a line break in it).
    case unusableKey(key: String, file: String)
    /// Nothing answered: no connection, no name, TLS failure. `detail` is curl's own words.
    case unreachable(url: String, detail: String)
    /// No complete answer within the time-out.
    case timedOut(url: String, seconds: Double)
    /// An answer other than 200.
    case status(url: String, code: Int)
    /// curl could not be run at all.
    case noClient(detail: String)

    package var code: String {
        switch self {
        case .missingKey, .unusableKey: return "missing_api_key"
        case .unreachable, .noClient: return "api_unreachable"
        case .timedOut: return "api_timeout"
        case .status: return "api_status"
        }
    }

    /// 2: the set-up is wrong; 6: the API could not be reached (retry later); 4: it answered
    /// something other than the customer (docs/ingest.md, "refresh").
    package var exitCode: ExitCode {
        switch self {
        case .missingKey, .unusableKey: return .usage
        case .unreachable, .timedOut, .noClient: return .remoteUnavailable
        case .status: return .dataError
        }
    }

    package var message: String {
        switch self {
        case .missingKey(let key, let file): return "no API key: \(Terminal.escape(file)) has no \(key)"
        case .unusableKey(let key, let file): return "\(Terminal.escape(file)): \(key) holds a control character; it cannot be sent as a header"
        case .unreachable(let url, let detail): return "cannot reach \(Terminal.escape(url)): \(Terminal.escape(detail))"
        case .timedOut(let url, let seconds): return "\(Terminal.escape(url)) did not answer within \(Self.seconds(seconds)) s"
        case .status(let url, let code): return "\(Terminal.escape(url)) answered HTTP \(code) (\(Self.reason(code))), not 200"
        case .noClient(let detail): return "cannot run curl: \(Terminal.escape(detail))"
        }
    }

    package var hint: String? {
        switch self {
        case .missingKey(let key, _), .unusableKey(let key, _):
            return "Add the vendor's secret API key as \(key) to the secrets file (mode 0600); see docs/ingest.md, \"refresh\"."
        case .unreachable, .timedOut: return "Nothing was changed. Check the network or --api-base, then run it again."
        case .status(_, let code) where code == 401 || code == 403:
            return "Nothing was changed. The API refused the key: check revenuecat.api_key (a secret key, sk_…)."
        case .status(_, let code) where code == 429 || code >= 500: return "Nothing was changed. The API is busy or failing; run it again later."
        case .status: return "Nothing was changed. Check the user id and --api-base."
        case .noClient: return "Install curl (scripts/ensure-tools.sh does)."
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func reason(_ code: Int) -> String {
        switch code {
        case 400: return "bad request"
        case 401: return "unauthorized"
        case 403: return "forbidden"
        case 404: return "not found"
        case 429: return "too many requests"
        case 500: return "internal server error"
        case 502: return "bad gateway"
        case 503: return "service unavailable"
        case 504: return "gateway timeout"
        default: return code >= 500 ? "server error" : code >= 400 ? "client error" : "unexpected"
        }
    }
}
