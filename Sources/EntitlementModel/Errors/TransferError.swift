import EntitlementBasics

/// Why a transfer of purchases between customers was refused (`TransferPlanner`, used by
/// `entitlement transfer` and by vendor events such as RevenueCat `TRANSFER`).
package enum TransferError: Error, Equatable, Sendable {
    /// `--transaction` (or the event) names a transaction none of the source profiles holds.
    case unknownTransaction(String)
    /// FROM and TO are one customer.
    case sameCustomer(String)
    /// TO is one of FROM's aliases (and no customer of its own): FROM and TO are one customer.
    case toOwnAlias(from: String, alias: String)

    package var message: String {
        switch self {
        case .unknownTransaction(let id): return "no transaction '\(Terminal.escape(id))' in the profiles to transfer from."
        case .sameCustomer(let user): return "cannot transfer from '\(Terminal.escape(user))' to itself."
        case .toOwnAlias(let from, let alias):
            return "cannot transfer from '\(Terminal.escape(from))' to '\(Terminal.escape(alias))': it is one of '\(Terminal.escape(from))''s own ids (an alias), so that is a transfer to itself."
        }
    }

    /// The machine name in `--json` errors.
    package var code: String {
        switch self {
        case .unknownTransaction: return "unknown_transaction"
        case .sameCustomer, .toOwnAlias: return "usage"
        }
    }

    /// An unknown transaction is "not found" (3), as for `revoke --transaction`; the same customer on both sides is a usage error (2).
    package var exitCode: ExitCode {
        switch self {
        case .unknownTransaction: return .notFound
        case .sameCustomer, .toOwnAlias: return .usage
        }
    }
}
