import EntitlementBasics

/// Why a vendor's API (for `refresh` and the other API commands) gave nothing to import.
/// Shown by `EntitlementError.vendorAPI`; compared with `==` in tests.
///
/// The URL in each case never holds a secret: keys and tokens travel in headers and bodies
/// only, and credentials an `--api-base` URL carries are left out when it is printed.
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
    /// 401 or 403: the vendor refused the credentials; `check` says what to look at.
    case refused(url: String, code: Int, check: String)
    /// 429 until the time-out (or the back-off) ran out.
    case rateLimited(url: String, seconds: Double)
    /// The answer passed `limit` bytes; reading stopped there.
    case tooLarge(url: String, limit: Int)
    /// A 200 answer that is not the documented shape (`detail` says what is wrong).
    case unexpectedAnswer(url: String, detail: String)
    /// A key file the secrets file names (`key`, e.g. `googleplay.service_account_file`) is
    /// refused or unusable: `why` says how.
    case keyFile(key: String, path: String, why: String)
    /// curl could not be run at all.
    case noClient(detail: String)
    /// Apple's Look Up Order ID answered status 1: the order ID is not Apple's, or not this app's.
    case orderNotFound(orderID: String)

    var code: String {
        switch self {
        case .missingKey, .unusableKey: return "missing_api_key"
        case .keyFile: return "refused_key_file"
        case .unreachable, .noClient: return "api_unreachable"
        case .timedOut: return "api_timeout"
        case .rateLimited: return "api_rate_limited"
        case .status, .refused: return "api_status"
        case .tooLarge: return "api_answer_too_large"
        case .unexpectedAnswer: return "api_unexpected_answer"
        case .orderNotFound: return "order_not_found"
        }
    }

    /// 2: the set-up is wrong; 6: the API could not be reached (retry later); 4: it answered
    /// something other than the customer (docs/ingest.md, "refresh").
    var exitCode: ExitCode {
        switch self {
        case .missingKey, .unusableKey, .keyFile: return .usage
        case .unreachable, .timedOut, .rateLimited, .noClient: return .remoteUnavailable
        case .status, .refused, .tooLarge, .unexpectedAnswer: return .dataError
        case .orderNotFound: return .notFound
        }
    }

    var message: String {
        switch self {
        case .missingKey(let key, let file): return "no API key: \(Terminal.escape(file)) has no \(key)"
        case .unusableKey(let key, let file): return "\(Terminal.escape(file)): \(key) holds a control character; it cannot be sent as a header"
        case .keyFile(let key, let path, let why): return "refusing \(key) \(Terminal.escape(path)): \(Terminal.escape(why))"
        case .unreachable(let url, let detail):
            return "cannot reach \(Self.shown(url)): \(Terminal.escape(URLText.scrub(detail, of: url)))"
        case .timedOut(let url, let seconds): return "\(Self.shown(url)) did not answer within \(Self.seconds(seconds)) s"
        case .status(let url, let code), .refused(let url, let code, _):
            return "\(Self.shown(url)) answered HTTP \(code) (\(Self.reason(code))), not 200"
        case .rateLimited(let url, let seconds):
            return "\(Self.shown(url)) answered HTTP 429 (too many requests) until the time-out (\(Self.seconds(seconds)) s) or the back-off ran out"
        case .tooLarge(let url, let limit): return "\(Self.shown(url)) answered more than \(limit >> 20) MiB (\(limit) bytes); reading stopped there"
        case .unexpectedAnswer(let url, let detail): return "\(Self.shown(url)) answered something other than the documented shape: \(Terminal.escape(detail))"
        case .noClient(let detail): return "cannot run curl: \(Terminal.escape(detail))"
        case .orderNotFound(let orderID):
            return "Apple has no order \(Terminal.escape(orderID)) for this app: the order ID is not Apple's, or it is another app's (Look Up Order ID answered status 1)"
        }
    }

    var hint: String? {
        switch self {
        case .missingKey(let key, _), .unusableKey(let key, _):
            return "Add the vendor's secret API key as \(key) to the secrets file (mode 0600); see docs/ingest.md, \"refresh\"."
        case .keyFile: return "A key file must be your own regular file (not a link) with mode 0600, and hold what the vendor gave; see docs/security.md."
        case .unreachable, .timedOut: return "Nothing was changed. Check the network or --api-base, then run it again."
        case .refused(_, _, let check): return "Nothing was changed. The API refused the credentials: check \(check)."
        case .status(_, let code) where code == 401 || code == 403:
            return "Nothing was changed. The API refused the key: check revenuecat.api_key (a secret key, sk_…)."
        case .status(_, let code) where code == 429 || code >= 500: return "Nothing was changed. The API is busy or failing; run it again later."
        case .rateLimited: return "Nothing was changed. The API asks for fewer requests: run it again later, or with a lower --rate."
        case .status: return "Nothing was changed. Check the user id and --api-base."
        case .tooLarge: return "Nothing was changed. Check --api-base: no answer of the vendor's is that large."
        case .unexpectedAnswer: return "Nothing was changed. Check --api-base, and that the API version is the one docs/ingest.md names."
        case .noClient: return "Install curl (scripts/ensure-tools.sh does)."
        case .orderNotFound: return "Nothing was changed. Copy the order ID from the receipt again (ten characters, e.g. MK5TTTVWJH), and check that the receipt is for this app and the store's environment."
        }
    }

    /// A URL as printed: escaped, without credentials.
    private static func shown(_ url: String) -> String { Terminal.escape(URLText.withoutCredentials(url)) }

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
