import EntitlementIngest
import EntitlementJSON
import EntitlementModel

/// Prints `ingest`'s counts as one line of text, or JSON (docs/ingest.md, "Summary").
enum IngestSummary {
    static let labels = ["applied": "applied", "duplicate": "duplicate", "out_of_order": "out of order", "unauthenticated": "unauthenticated",
                         "unsupported": "unsupported", "malformed": "malformed", "failed": "failed"]

    static func write(_ report: IngestReport, refreshed: IngestRefreshCount? = nil, json: Bool, to out: OutputSink, quiet: Bool) {
        if json {
            var fields: [(String, JSONValue)] = IngestReport.columns.map { ($0, .int(report.counts[$0] ?? 0)) }
            fields.append(("local_events", .int(report.localEvents)))
            if let refreshed {
                fields.append(("refresh", .object(JSONObject([("customers", .int(refreshed.customers)), ("changed", .int(refreshed.changed)),
                                                             ("failed", .int(refreshed.failed))]))))
            }
            fields.append(("exit_code", .int(Int(ExitCode.worst(report.exitCode, refreshed?.exitCode ?? .success).rawValue))))
            out.write(JSONWriter().string(.object(JSONObject(fields))))
            return
        }
        guard !quiet else { return }
        let parts = IngestReport.columns.map { "\(report.counts[$0] ?? 0) \(labels[$0] ?? $0)" }
        out.write("Ingested \(report.total) event\(report.total == 1 ? "" : "s"): \(parts.joined(separator: ", ")).\n")
        if report.localEvents > 0 {
            out.write("note: \(report.localEvents) from local input, without HTTP: the operator vouches for them (App Store signatures are checked).\n")
        }
        if let refreshed {
            out.write("Refreshed \(refreshed.customers) RevenueCat customer\(refreshed.customers == 1 ? "" : "s"): \(refreshed.changed) changed, \(refreshed.failed) failed.\n")
        }
    }
}
