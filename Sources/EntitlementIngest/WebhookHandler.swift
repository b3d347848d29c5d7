import FoundationEssentials
import EntitlementJSON
import EntitlementModel
import EntitlementStore

/// `entitlement webhook`'s work, apart from its I/O, in two steps (docs/ingest.md, "Answers"):
/// `accept` does only what the 200 promises (authenticate, read the events, spool durably);
/// `apply`, run once the answer has gone out, applies the spooled request under the lock,
/// with the events `accept` read (each signature checked once), and any other request left
/// waiting in the spool. A request killed between the two stays in the spool: the next
/// request's `apply`, or `ingest`, applies it once (the ledger makes a second apply of its
/// events a duplicate, never a change).
package struct WebhookHandler: Sendable {
    package var store: EntitlementStore
    package var authenticator: WebhookAuthenticator
    /// The ingest actor, for a team store's commit.
    package var actor: String
    /// How long applying, after the answer, waits for the store lock; a store busy longer
    /// leaves the request spooled for the next request or `ingest`.
    var applyWait = 1.0
    /// Bodies larger than this are refused (413) without being read.
    static let maximumBody = 1 << 20

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

    /// A request spooled and not applied yet, with the events read from it: what `apply` needs.
    package struct Accepted: Sendable {
        /// Where it was spooled (published into the spool by `apply`).
        let spooled: Spool.Spooled
        package var name: String { spooled.name }
        package let request: WebhookRequest
        package let events: [IngestEvent]
    }

    /// The answer, and the spooled request to apply once it has been sent (nil when there is none).
    package func accept(_ request: WebhookRequest) -> (response: WebhookResponse, accepted: Accepted?) {
        let vendor = request.vendor.rawValue
        guard let adapter = VendorTable.adapter(for: request.vendor) else {
            return (.error(404, "unsupported_vendor", "\(request.vendor.displayName) events are not read by this version"), nil)
        }
        if case .refused(let status, let log) = adapter.authenticate(request, with: authenticator) {
            return (.error(status, status == 401 ? "unauthorized" : "forbidden", "not authenticated", log: log), nil)
        }
        let events: [IngestEvent]
        do throws(EventRejection) {
            events = try adapter.events(in: request, with: authenticator)
        } catch {
            switch error {
            case .malformed(let why):
                return (.error(400, "malformed", "not a well-formed \(request.vendor.displayName) event: \(DocumentBody.refusal(request.body) ?? why)"), nil)
            case .unauthenticated(let why):
                return (.error(403, "forbidden", "signed data not verified", log: "\(vendor): \(why)"), nil)
            }
        }
        guard !events.isEmpty else { return (WebhookResponse(status: 200, fields: [("status", .string("ok")), ("events", .int(0))]), nil) }
        let spooled: Spool.Spooled
        do throws(EntitlementError) {
            try store.requireExists()
            spooled = try Spool(store: store).write(SpoolRecord(request: request, verification: events[0].verification))
        } catch {
            return (.error(500, "not_spooled", "the event could not be stored; retry", log: "\(vendor): cannot spool: \(error.description)"), nil)
        }
        let fields: [(String, JSONValue)] = [("status", .string("accepted")), ("events", .int(events.count)), ("ids", .array(events.map { .string($0.id) }))]
        return (WebhookResponse(status: 200, fields: fields), Accepted(spooled: spooled, request: request, events: events))
    }
}
