import EntitlementModel
import EntitlementRules
import EntitlementStore

/// `log` over a plain store: every profile read on every core (`ProfileSweep`, as `find`),
/// each folded at once into its few matching records, so memory holds the matches (with
/// `--limit`, at most about twice the limit), never the profiles.
package struct PlainLogReader {
    package struct Part: Sendable {
        var records: [LogRecord] = []
        var errors: [EntitlementError] = []
    }

    package let store: EntitlementStore
    package let query: LogQuery
    package let engine: StatusEngine

    package init(store: EntitlementStore, query: LogQuery, engine: StatusEngine) {
        self.store = store
        self.query = query
        self.engine = engine
    }

    /// The records, oldest first; `failed` is told each file that cannot be read.
    package func records(failed: (EntitlementError) -> Void) throws(EntitlementError) -> [LogRecord] {
        let query = self.query, engine = self.engine
        let sweep = ProfileSweep<Part>(scan: ProfileScan(store: store), makePart: { Part() },
                                       visit: { part, profile in part.records += LogRecord.records(of: profile, query: query, engine: engine) },
                                       fail: { $0.errors.append($1) })
        var records: [LogRecord] = []
        try sweep.run { part in
            for error in part.errors { failed(error) }
            records += part.records
            if let limit = query.limit, records.count > 2 * limit + 1024 { records = LogRecord.arrange(records, limit: limit) }
        }
        return LogRecord.arrange(records, limit: query.limit)
    }
}
