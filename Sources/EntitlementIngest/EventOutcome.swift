import EntitlementModel

/// What became of one event (or of a request that held none); the summary counts these.
package enum EventOutcome: Equatable, Sendable {
    case applied
    /// An event type that never changes access (`TEST`, `PRICE_INCREASE`): recorded, counted applied.
    case noChange(String)
    /// Older than what the records hold: recorded, nothing moved backwards.
    case outOfOrder
    /// Already in the ledger: nothing done.
    case duplicate
    /// Credentials or signed data refused.
    case unauthenticated(String)
    /// A vendor or shape this version does not read.
    case unsupported(String)
    /// Not a well-formed event of the vendor.
    case malformed(String)
    /// Could not be applied (an unknown customer, an unusable profile): kept for the next `ingest`.
    case failed(String)

    /// The summary's column.
    package var column: String {
        switch self {
        case .applied, .noChange: return "applied"
        case .outOfOrder: return "out_of_order"
        case .duplicate: return "duplicate"
        case .unauthenticated: return "unauthenticated"
        case .unsupported: return "unsupported"
        case .malformed: return "malformed"
        case .failed: return "failed"
        }
    }

    /// `ingest`'s exit code for it: 2 bad input, 4 store, 0 otherwise.
    var exitCode: ExitCode {
        switch self {
        case .applied, .noChange, .outOfOrder, .duplicate: return .success
        case .unauthenticated, .unsupported, .malformed: return .usage
        case .failed: return .dataError
        }
    }

    /// The ledger's word for an event that is recorded.
    var ledgerOutcome: String? {
        switch self {
        case .applied: return "applied"
        case .noChange: return "no_change"
        case .outOfOrder: return "out_of_order"
        default: return nil
        }
    }
}
