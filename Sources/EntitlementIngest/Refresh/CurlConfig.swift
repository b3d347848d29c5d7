import EntitlementBasics

/// The config curl reads on its standard input (`curl -q --config -`): the only place a
/// request's URL, headers and body go, so no secret is ever on a command line, where `ps` and
/// `/proc` show it to every user.
enum CurlConfig {
    /// What curl appends to the body: a newline, the status, a tab and the `Retry-After` header.
    static let trailer = "\\n%{http_code}\\t%header{retry-after}"

    /// HTTP(S) only, no redirects (one would carry the credentials elsewhere), the status
    /// and `Retry-After` appended to the body, `--max-filesize` for answers that say their length.
    static func text(_ request: APIRequest, timeout: Double, maxBytes: Int) -> String {
        var lines = [
            "url = \(quoted(request.url))",
            "proto = \"=http,https\"",
            "silent",
            "show-error",
            "max-time = \(timeout)",
            "connect-timeout = \(min(timeout, 10))",
            "max-filesize = \(maxBytes)",
            "output = \"-\"",
            "write-out = \"\(trailer)\"",
        ]
        for header in request.headers { lines.append("header = \(quoted("\(header.name): \(header.value)"))") }
        if let body = request.body {
            lines.append("header = \(quoted("Content-Type: \(body.contentType)"))")
            // data-raw: a body that starts with @ is never read as a file name.
            lines.append("data-raw = \(quoted(body.text))")
        }
        if request.method == .post, request.body == nil { lines.append("request = \"POST\"") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A quoted config value: backslash, quote and the line-breaking controls escaped.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The answer's body, status and `Retry-After`, split off what curl appended.
    static func split(_ output: [UInt8]) -> (body: [UInt8], code: Int, retryAfter: String) {
        guard let newline = output.lastIndex(of: UInt8(ascii: "\n")) else { return ([], 0, "") }
        let tail = String(decoding: output[(newline + 1)...], as: UTF8.self)
        let parts = tail.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        let retryAfter = parts.count > 1 ? parts[1].trimmingWhitespace : ""
        return (Array(output[..<newline]), Int(parts.first ?? "") ?? 0, retryAfter)
    }
}
