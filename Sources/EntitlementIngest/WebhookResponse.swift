import EntitlementJSON

/// A CGI answer (RFC 3875, 6.2): a `Status:` line, headers and a short JSON body; plus the one
/// line the web server's error log gets, if any (never a secret, never a body).
package struct WebhookResponse: Sendable, Equatable {
    package var status: Int
    package var fields: [(String, JSONValue)]
    package var log: String?

    package init(status: Int, fields: [(String, JSONValue)], log: String? = nil) {
        self.status = status
        self.fields = fields
        self.log = log
    }

    package static func == (a: WebhookResponse, b: WebhookResponse) -> Bool {
        a.status == b.status && a.log == b.log && JSONValue.object(JSONObject(a.fields)) == JSONValue.object(JSONObject(b.fields))
    }

    /// An error answer: `{"error": CODE, "message": TEXT}`.
    package static func error(_ status: Int, _ code: String, _ message: String, log: String? = nil) -> WebhookResponse {
        WebhookResponse(status: status, fields: [("error", .string(code)), ("message", .string(message))], log: log)
    }

    static let reasons: [Int: String] = [
        200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        411: "Length Required", 413: "Content Too Large", 500: "Internal Server Error",
    ]

    /// The bytes for standard output. `Content-Length` lets the server end the response as soon
    /// as it has them, before this process exits (it applies the request after answering).
    package var cgiBytes: [UInt8] {
        let body = JSONWriter().bytes(.object(JSONObject(fields)))
        let head = "Status: \(status) \(Self.reasons[status] ?? "Status")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nCache-Control: no-store\r\n\r\n"
        return Array(head.utf8) + body
    }
}
