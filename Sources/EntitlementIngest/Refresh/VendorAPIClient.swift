import EntitlementBasics
import EntitlementModel

/// One HTTPS GET through `curl`, a system program as git is (scripts/ensure-tools.sh installs it).
///
/// Secrets never reach curl's command line, where `ps` and `/proc` show them to every user:
/// the URL and the headers go to curl as a config file on its standard input (`--config -`).
/// `-q` first, so no `~/.curlrc` adds to or changes the request.
package struct VendorAPIClient: Sendable {
    /// The longest wait for a whole answer, in seconds.
    package var timeout: Double
    /// Passed to curl: its search path and proxy settings only (no HOME: no curlrc either way).
    package var environment: [String: String]

    package static let passedVariables = ["PATH", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]

    package init(timeout: Double, environment: [String: String]) {
        self.timeout = timeout
        var passed = environment.filter { Self.passedVariables.contains($0.key) }
        if passed["PATH"] == nil { passed["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        self.environment = passed
    }

    /// The body of a 200 answer to `GET url` with `headers`; any other outcome is an error that
    /// names the URL (never a header). An answer larger than `maxBytes` is cut off by curl.
    package func get(_ url: String, headers: [(name: String, value: String)], maxBytes: Int = 16 << 20) throws(EntitlementError) -> [UInt8] {
        let config = Self.config(url: url, headers: headers, timeout: timeout, maxBytes: maxBytes)
        // curl's own --max-time ends it first; the process time-out is the backstop.
        guard let result = Subprocess.run(["curl", "-q", "--config", "-"], environment: environment, input: Array(config.utf8),
                                          timeout: timeout + 5) else {
            throw .vendorAPI(.noClient(detail: "curl was not found in PATH"))
        }
        if result.timedOut || result.status == 28 { throw .vendorAPI(.timedOut(url: url, seconds: timeout)) }
        guard result.status == 0 else {
            if result.status == 127 { throw .vendorAPI(.noClient(detail: "curl was not found in PATH")) }
            let said = result.errorText.split(separator: "\n").last.map(String.init) ?? "curl exit \(result.status)"
            throw .vendorAPI(.unreachable(url: url, detail: said))
        }
        let (body, code) = Self.split(result.stdout)
        guard code == 200 else { throw .vendorAPI(.status(url: url, code: code)) }
        return body
    }

    /// The answer's body and status: curl writes the status last, on a line of its own.
    static func split(_ output: [UInt8]) -> (body: [UInt8], code: Int) {
        guard let newline = output.lastIndex(of: UInt8(ascii: "\n")) else { return ([], Int(String(decoding: output, as: UTF8.self)) ?? 0) }
        return (Array(output[..<newline]), Int(String(decoding: output[(newline + 1)...], as: UTF8.self)) ?? 0)
    }

    /// curl's config: quoted values (backslash and quote escaped), HTTP(S) only, no redirects
    /// (a redirect would carry the key elsewhere), the status appended to the body.
    static func config(url: String, headers: [(name: String, value: String)], timeout: Double, maxBytes: Int) -> String {
        var lines = [
            "url = \(quoted(url))",
            "proto = \"=http,https\"",
            "silent",
            "show-error",
            "max-time = \(timeout)",
            "connect-timeout = \(min(timeout, 10))",
            "max-filesize = \(maxBytes)",
            "output = \"-\"",
            "write-out = \"\\n%{http_code}\"",
        ]
        for header in headers { lines.append("header = \(quoted("\(header.name): \(header.value)"))") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quoted(_ value: String) -> String {
        "\"" + value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// Whether `value` can be a header value: no control characters (a CR or LF would start a new header).
    package static func isHeaderSafe(_ value: String) -> Bool {
        !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
