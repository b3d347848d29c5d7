import FoundationEssentials
import EntitlementBasics
import EntitlementModel
import EntitlementRules

/// What `revoke` shows before it asks: the transactions it will revoke, and the access after.
enum RevokePreview {
    static func text(user: String, entitlement: String, transactions: [Transaction], before: AccessLevel, after: AccessLevel,
                     alsoAffected: [String], at now: Date) -> String {
        guard !transactions.isEmpty else {
            return "Nothing to revoke: '\(Terminal.escape(user))' has no active or scheduled grant of \(Terminal.escape(entitlement)).\n"
        }
        var out = "Will revoke \(transactions.count) transaction\(transactions.count == 1 ? "" : "s") of \(Terminal.escape(entitlement)) from '\(Terminal.escape(user))':\n"
        var table = TextTable(headers: ["TRANSACTION", "STORE", "PRODUCT", "STARTS", "EXPIRES", "GRANTED BY", "REASON"])
        for transaction in transactions {
            let product = transaction.isManualGrant ? "\(transaction.entitlement ?? "?") (manual)" : (transaction.productID ?? "-")
            table.append([transaction.transactionID, transaction.store.rawValue, product, HumanDate.format(transaction.effectiveStart),
                          transaction.expiresAt.map(HumanDate.format) ?? "never", transaction.grantedBy ?? "-", transaction.reason ?? "-"])
        }
        out += table.render().split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        if after.isActive {
            out += "Access that remains: \(Terminal.escape(entitlement)) stays \(after.state.rawValue), \(AccessLevelText.expiry(after, at: now))"
            out += after.store.map { " (from \(Terminal.escape($0.rawValue))\(after.productID.map { ", \(Terminal.escape($0))" } ?? ""))" } ?? ""
            out += ".\n"
        } else {
            out += "Access that ends: \(Terminal.escape(entitlement)) goes from \(before.state.rawValue) to \(after.state.rawValue).\n"
        }
        if !alsoAffected.isEmpty {
            out += "The purchase\(transactions.count == 1 ? "" : "s") also unlock\(transactions.count == 1 ? "s" : ""): \(alsoAffected.map(Terminal.escape).joined(separator: ", ")).\n"
        }
        return out
    }
}
