import EntitlementBasics
import EntitlementIngest
import EntitlementJSON

/// Prints `ingest --status` as text or JSON (docs/ingest.md, "Status").
enum IngestStatusReport {
    static func write(_ status: IngestStatus, json: Bool, to out: OutputSink) {
        if json {
            let failures: [JSONValue] = status.failures.map { failure in
                .object(JSONObject([
                    ("file", .string(failure.file)), ("vendor", .string(failure.vendor)),
                    ("received_at", failure.receivedAt.map { .string(ISODate.format($0)) } ?? .null), ("reason", .string(failure.reason)),
                ]))
            }
            out.write(JSONWriter().string(.object(JSONObject([
                ("waiting", .int(status.waiting)), ("oldest", status.oldest.map { .string(ISODate.format($0)) } ?? .null),
                ("failed", .array(failures)),
                ("abandoned_requests", .int(status.abandonedRequests.count)),
                ("awaiting_purchases", .array(status.awaitingPurchases.map { awaiting in
                    .object(JSONObject([
                        ("purchase_token", .string(awaiting.token)), ("notification_type", .string(awaiting.notificationType)),
                        ("notified_at", awaiting.notifiedAt.map { .string(ISODate.format($0)) } ?? .null),
                    ]))
                })),
            ]))))
            return
        }
        let oldest = status.oldest.map { ", oldest received \(ISODate.format($0))" } ?? ""
        out.write("Waiting: \(status.waiting) request\(status.waiting == 1 ? "" : "s")\(oldest).\n")
        out.write("Failed: \(status.failures.count)\(status.failures.isEmpty ? "." : ":")\n")
        for failure in status.failures {
            out.write("  \(Terminal.escape(failure.file)) (\(failure.vendor)): \(Terminal.escape(failure.reason))\n")
        }
        if !status.abandonedRequests.isEmpty {
            let count = status.abandonedRequests.count
            out.write("Abandoned: \(count) request file\(count == 1 ? "" : "s") in ingest/incoming/ left by killed webhooks (never acknowledged; the next 'entitlement ingest' removes them).\n")
        }
        if !status.awaitingPurchases.isEmpty {
            out.write("Google Play purchases awaiting their document (import it): \(status.awaitingPurchases.count)\n")
            for awaiting in status.awaitingPurchases {
                let when = awaiting.notifiedAt.map { " at \(ISODate.format($0))" } ?? ""
                out.write("  \(Terminal.escape(awaiting.token)): \(Terminal.escape(awaiting.notificationType ?? "notification"))\(when)\n")
            }
        }
    }
}
