import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// `entitlement webhook`'s work, apart from its I/O: authenticate, read the events, spool
/// durably, then try to apply within a short wait (docs/ingest.md, "Answers").
package struct WebhookHandler: Sendable {
    package var store: EntitlementStore
    package var authenticator: WebhookAuthenticator
    /// The ingest actor, for a team store's commit.
    package var actor: String
    /// How long applying waits for the store lock; a busy store leaves the event spooled.
    package var applyWait = 1.0
    /// Bodies larger than this are refused (413) without being read.
    package static let maximumBody = 1 << 20

    package init(store: EntitlementStore, authenticator: WebhookAuthenticator, actor: String) {
        self.store = store
        self.authenticator = authenticator
        self.actor = actor
    }

    /// The answer before the body is read: the method and the length, or nil to go on.
    package static func screen(method: String?, contentLength: String?) -> WebhookResponse? {
        if let method, method != "POST" { return .error(405, "method_not_allowed", "webhooks are POST requests") }
        guard let text = contentLength, let length = Int(text), length >= 0 else {
            return .error(411, "length_required", "CONTENT_LENGTH is missing")
        }
        guard length <= maximumBody else {
            return .error(413, "too_large", "the body is larger than \(maximumBody) bytes", log: "body of \(length) bytes refused (limit \(maximumBody))")
        }
        return nil
    }

    /// The answer once the body is read: a body shorter than CONTENT_LENGTH (a client that
    /// stopped, a server or direct call that passes a cut body) is a bad request, never applied.
    package static func screen(body: [UInt8], contentLength: Int) -> WebhookResponse? {
        guard body.count < contentLength else { return nil }
        return .error(400, "short_body", "the body is shorter than CONTENT_LENGTH",
                      log: "body of \(body.count) bytes, CONTENT_LENGTH \(contentLength): refused")
    }

    package func handle(_ request: WebhookRequest) -> WebhookResponse {
        let vendor = request.vendor.rawValue
        guard let adapter = VendorTable.adapter(for: request.vendor) else {
            return .error(404, "unsupported_vendor", "\(request.vendor.displayName) events are not read by this version")
        }
        if case .refused(let status, let log) = adapter.authenticate(request, with: authenticator) {
            return .error(status, status == 401 ? "unauthorized" : "forbidden", "not authenticated", log: log)
        }
        let events: [IngestEvent]
        do throws(EventRejection) {
            events = try adapter.events(in: request, with: authenticator)
        } catch {
            switch error {
            case .malformed(let why):
                return .error(400, "malformed", "not a well-formed \(request.vendor.displayName) event: \(DocumentBody.refusal(request.body) ?? why)")
            case .unauthenticated(let why):
                return .error(403, "forbidden", "signed data not verified", log: "\(vendor): \(why)")
            }
        }
        guard !events.isEmpty else { return WebhookResponse(status: 200, fields: [("status", .string("ok")), ("events", .int(0))]) }
        let spool = Spool(store: store)
        let name: String
        do throws(EntitlementError) {
            try store.requireExists()
            name = try spool.write(SpoolRecord(request: request, verification: events[0].verification))
        } catch {
            return .error(500, "not_spooled", "the event could not be stored; retry", log: "\(vendor): cannot spool: \(error.description)")
        }
        var fields: [(String, JSONValue)] = [("status", .string("accepted")), ("events", .int(events.count)), ("ids", .array(events.map { .string($0.id) }))]
        var applying = store
        applying.lockTimeout = applyWait
        var runner = IngestRunner(store: applying, authenticator: authenticator, actor: actor)
        // Sweeping every profile for an App Store customer takes seconds on a big store: past
        // the vendor's deadline. The webhook uses the index only; `ingest` sweeps.
        runner.sweepsForCustomers = false
        do throws(EntitlementError) {
            let report = try runner.run([IngestUnit(source: .spool(name), request: request)])
            for column in IngestReport.columns where report.counts[column, default: 0] > 0 {
                fields.append((column, .int(report.counts[column] ?? 0)))
            }
            let log = report.problems.isEmpty ? nil : "\(vendor): spooled; \(report.problems.joined(separator: "; "))"
            return WebhookResponse(status: 200, fields: fields, log: log)
        } catch {
            // Spooled is acknowledged: `ingest` applies it later.
            fields.append(("queued", .bool(true)))
            return WebhookResponse(status: 200, fields: fields, log: "\(vendor): spooled, not applied yet: \(error.description)")
        }
    }
}
