import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// One request as spooled: the body as received, the headers without credentials, when it
/// arrived and how it was authenticated (docs/store-format.md, "Ingest").
package struct SpoolRecord: Sendable, Equatable {
    var request: WebhookRequest
    /// How the request was authenticated when it arrived (`authorization header`, `signed data`).
    package var verification: String
    /// Set in `ingest/failed/`: why the last attempt to apply it failed.
    var failure: String?

    init(request: WebhookRequest, verification: String, failure: String? = nil) {
        self.request = request
        self.verification = verification
        self.failure = failure
    }

    /// The file's bytes. The body is kept as text (it parsed as JSON, so it is UTF-8).
    package var bytes: [UInt8] {
        var fields: [(String, JSONValue)] = [
            ("schema_version", .int(1)), ("vendor", .string(request.vendor.rawValue)),
            ("received_at", .string(ISODate.format(request.receivedAt))), ("over_http", .bool(request.overHTTP)),
            ("verification", .string(verification)),
            ("headers", .object(JSONObject(request.recordableHeaders.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))),
            ("body", .string(String(decoding: request.body, as: UTF8.self))),
        ]
        if let failure { fields.append(("failure", .string(failure))) }
        return JSONWriter().bytes(.object(JSONObject(fields)))
    }

    /// Reads a spool file; nil when it is not one (reported by path, never removed).
    init?(bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONParser.parse(bytes),
              let vendor = object["vendor"]?.stringValue.flatMap(Vendor.init(rawValue:)),
              let received = object["received_at"]?.stringValue.flatMap(ISODate.parse),
              let body = object["body"]?.stringValue else { return nil }
        var headers: [String: String] = [:]
        for (key, value) in object["headers"]?.objectValue?.entries ?? [] { headers[key] = value.stringValue }
        var overHTTP = true
        if case .bool(let flag)? = object["over_http"] { overHTTP = flag }
        request = WebhookRequest(vendor: vendor, body: Array(body.utf8), headers: headers, receivedAt: received, overHTTP: overHTTP)
        verification = object["verification"]?.stringValue ?? ""
        failure = object["failure"]?.stringValue
    }
}
