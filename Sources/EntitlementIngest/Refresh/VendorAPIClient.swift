import EntitlementBasics
import EntitlementModel

/// HTTPS requests to a vendor's API through `curl`, a system program as git is
/// (scripts/ensure-tools.sh installs it), with the outcomes every API command shares
/// (docs/ingest.md, "Failures"):
///
/// - unreachable, or no answer within `timeout`: exit 6;
/// - 401/403: exit 4, naming what to check; other 4xx: exit 4;
/// - 429: wait as `Retry-After` says (else back off 1, 2, 4 s) while the time-out allows, then exit 6;
/// - 5xx: two retries with back-off (1, 2 s), then exit 4;
/// - more than `maxBytes`: reading stops there, exit 4.
///
/// Secrets never reach curl's command line: the request goes as a config on its standard
/// input (`CurlConfig`). `-q` first, so no `~/.curlrc` adds to or changes the request.
package struct VendorAPIClient: Sendable {
    /// The longest wait for one request, its retries and back-off included, in seconds.
    package var timeout: Double
    /// Passed to curl: its search path and proxy settings only (no HOME: no curlrc either way).
    package var environment: [String: String]
    /// The clock and sleep of back-off and rate limiting (tests pass one that does not wait).
    package var pacing: Pacing
    /// At most this many requests a second, shared by every request of the run (nil: no limit).
    package var rate: RequestRate?
    /// The largest answer read (docs/ingest.md: 16 MiB).
    var maxBytes = 16 << 20

    static let passedVariables = ["PATH", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]
    /// The waits after the first, second and third 429 without `Retry-After`, and after a 5xx.
    static let backOff: [Double] = [1, 2, 4]
    /// Retries after a 5xx answer.
    static let serverErrorRetries = 2

    package init(timeout: Double, environment: [String: String], pacing: Pacing = .real, rate: RequestRate? = nil) {
        self.timeout = timeout
        var passed = environment.filter { Self.passedVariables.contains($0.key) }
        if passed["PATH"] == nil { passed["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        self.environment = passed
        self.pacing = pacing
        self.rate = rate
    }

    /// The body of a 2xx answer to `request`, after the retries the outcomes above allow; any
    /// other outcome is an error that names the URL (never a header or a body).
    func send(_ request: APIRequest) throws(EntitlementError) -> [UInt8] {
        let started = pacing.now()
        var busy = 0, failing = 0
        while true {
            let left = timeout - (pacing.now() - started)
            guard left > 0 else { throw .vendorAPI(.timedOut(url: request.url, seconds: timeout)) }
            rate?.wait(pacing)
            let answer = try once(request, timeout: left)
            switch answer.code {
            case 200..<300:
                return answer.body
            case 429:
                let wait = Self.retryAfter(answer.retryAfter) ?? (busy < Self.backOff.count ? Self.backOff[busy] : nil)
                busy += 1
                guard let wait, pacing.now() - started + wait < timeout else {
                    throw .vendorAPI(.rateLimited(url: request.url, seconds: timeout))
                }
                pacing.sleep(wait)
            case 500..<600 where failing < Self.serverErrorRetries:
                let wait = Self.backOff[failing]
                failing += 1
                guard pacing.now() - started + wait < timeout else { throw .vendorAPI(.status(url: request.url, code: answer.code)) }
                pacing.sleep(wait)
            case let code where request.refusedStatuses.contains(code):
                throw .vendorAPI(.refused(url: request.url, code: answer.code, check: request.credentialCheck))
            default:
                throw .vendorAPI(.status(url: request.url, code: answer.code))
            }
        }
    }

    /// `GET url` with `headers`.
    package func get(_ url: String, headers: [(name: String, value: String)], credentialCheck: String) throws(EntitlementError) -> [UInt8] {
        try send(APIRequest(.get, url, headers: headers, credentialCheck: credentialCheck))
    }

    /// One attempt: the status, body and `Retry-After` of whatever answered.
    func once(_ request: APIRequest, timeout: Double) throws(EntitlementError) -> (code: Int, body: [UInt8], retryAfter: String) {
        let config = CurlConfig.text(request, timeout: timeout, maxBytes: maxBytes)
        // curl's own --max-time ends it first; the process time-out is the backstop. The output
        // limit stops an answer without a length (chunked), which --max-filesize cannot.
        guard let result = Subprocess.run(["curl", "-q", "--config", "-"], environment: environment, input: Array(config.utf8),
                                          timeout: timeout + 5, outputLimit: maxBytes + 4096) else {
            throw .vendorAPI(.noClient(detail: "curl was not found in PATH"))
        }
        if result.outputLimitReached || result.status == 63 { throw .vendorAPI(.tooLarge(url: request.url, limit: maxBytes)) }
        if result.timedOut || result.status == 28 { throw .vendorAPI(.timedOut(url: request.url, seconds: self.timeout)) }
        guard result.status == 0 else {
            if result.status == 127 { throw .vendorAPI(.noClient(detail: "curl was not found in PATH")) }
            let said = result.errorText.split(separator: "\n").last.map(String.init) ?? "curl exit \(result.status)"
            throw .vendorAPI(.unreachable(url: request.url, detail: said))
        }
        let (body, code, retryAfter) = CurlConfig.split(result.stdout)
        guard body.count <= maxBytes else { throw .vendorAPI(.tooLarge(url: request.url, limit: maxBytes)) }
        return (code, body, retryAfter)
    }

    /// `Retry-After` in seconds (RFC 9110 allows seconds or an HTTP date; only seconds are
    /// read, a date falls back to the back-off).
    static func retryAfter(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let seconds = Int(text.prefix(9)) else { return nil }
        return Double(seconds)
    }

    /// Whether `value` can be a header value: no control characters (a CR or LF would start a new header).
    package static func isHeaderSafe(_ value: String) -> Bool {
        !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
