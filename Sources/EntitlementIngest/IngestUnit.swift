
/// One request to ingest and where it came from; the unit `ingest` removes or marks failed.
package struct IngestUnit: Sendable {
    package enum Source: Sendable, Equatable {
        /// A file in the spool (its name).
        case spool(String)
        /// A saved request body (`ingest --from DIR`).
        case file(String)
        /// One line of standard input (`ingest --stdin`), counted from 1.
        case line(Int)
        /// An answer of a vendor's API (`refresh`, `lookup --import`, `ingest --recover`): its URL, without credentials.
        case api(String)

        /// True for a vendor API's answer: fetched with the store's own credentials, not local input.
        var isAPI: Bool {
            if case .api = self { return true }
            return false
        }

        /// For messages: the spool file, the path, or `<stdin>:LINE`.
        package var name: String {
            switch self {
            case .spool(let name): return "spool/\(name)"
            case .file(let path): return path
            case .line(let number): return "<stdin>:\(number)"
            case .api(let url): return url
            }
        }
    }

    package var source: Source
    package var request: WebhookRequest

    package init(source: Source, request: WebhookRequest) {
        self.source = source
        self.request = request
    }
}

/// What became of one unit's events (a unit that held no event has one entry without an id).
package struct UnitResult: Sendable {
    package var unit: IngestUnit
    var results: [(event: IngestEvent?, outcome: EventOutcome)]

    /// The first failure's reason, if an event failed (the unit then stays for the next run).
    var failure: String? {
        for (_, outcome) in results { if case .failed(let reason) = outcome { return reason } }
        return nil
    }
}
