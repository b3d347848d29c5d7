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
            ]))))
            return
        }
        let oldest = status.oldest.map { ", oldest received \(ISODate.format($0))" } ?? ""
        out.write("Waiting: \(status.waiting) request\(status.waiting == 1 ? "" : "s")\(oldest).\n")
        out.write("Failed: \(status.failures.count)\(status.failures.isEmpty ? "." : ":")\n")
        for failure in status.failures {
            out.write("  \(Terminal.escape(failure.file)) (\(failure.vendor)): \(Terminal.escape(failure.reason))\n")
        }
    }
}
