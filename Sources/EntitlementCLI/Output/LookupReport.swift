import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel

/// What `lookup` prints: the order's transactions and their holder, as text or the stable JSON
/// of docs/json-output.md ("lookup").
enum LookupReport {
    static func write(_ found: AppStoreLookup.Found, imported: (user: String, report: IngestReport)?, json: Bool, to out: OutputSink, quiet: Bool) {
        if json {
            out.write(JSONWriter().string(self.json(found, imported: imported)))
            return
        }
        guard !quiet else { return }
        let count = found.items.count
        out.write("Order \(Terminal.escape(found.orderID)): \(count) transaction\(count == 1 ? "" : "s") (signed by Apple, verified).\n")
        for item in found.items {
            let t = item.transaction
            var line = "  \(Terminal.escape(t.transactionID))  \(Terminal.escape(t.productID ?? "?"))  purchased \(ISODate.format(t.purchasedAt))"
            if let expires = t.expiresAt { line += "  expires \(ISODate.format(expires))" }
            if let revoked = t.revokedAt { line += "  revoked \(ISODate.format(revoked))" }
            line += "  original \(Terminal.escape(t.originalTransactionID))"
            out.write(line + "\n")
            if let holder = item.holder {
                out.write("    held by \(Terminal.escape(holder)) (by \(item.holderSource ?? "?"))\n")
            } else {
                out.write("    held by no customer here" + (item.appAccountToken.map { " (appAccountToken \(Terminal.escape($0)))" } ?? "") + "\n")
            }
        }
        if let imported {
            let applied = imported.report.counts["applied"] ?? 0, same = imported.report.counts["duplicate"] ?? 0
            out.write("Imported into \(Terminal.escape(imported.user)): " + (applied > 0 ? "applied" : same > 0 ? "already applied, no change" : "no change") + ".\n")
        } else if found.holder == nil, count > 0 {
            out.write("To give them to a customer: entitlement lookup \(Terminal.escape(found.orderID)) --import --user USER\n")
        }
    }

    static func json(_ found: AppStoreLookup.Found, imported: (user: String, report: IngestReport)?) -> JSONValue {
        func date(_ value: Date?) -> JSONValue { value.map { .string(ISODate.format($0)) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let items: [JSONValue] = found.items.map { item in
            let t = item.transaction
            return .object(JSONObject([
                ("transaction_id", .string(t.transactionID)), ("original_transaction_id", .string(t.originalTransactionID)),
                ("product_id", text(t.productID)), ("purchased_at", date(t.purchasedAt)), ("expires_at", date(t.expiresAt)),
                ("revoked_at", date(t.revokedAt)), ("environment", .string(t.environment.rawValue)),
                ("app_account_token", text(item.appAccountToken)), ("customer", text(item.holder)), ("customer_found_by", text(item.holderSource)),
            ]))
        }
        var fields: [(String, JSONValue)] = [
            ("order_id", .string(found.orderID)), ("vendor", .string("appstore")), ("found", .bool(true)),
            ("transactions", .array(items)), ("customer", text(found.holder)),
        ]
        if let imported {
            fields.append(("imported", .object(JSONObject([
                ("user", .string(imported.user)), ("applied", .int(imported.report.counts["applied"] ?? 0)),
                ("already_applied", .int(imported.report.counts["duplicate"] ?? 0)),
                ("out_of_order", .int(imported.report.counts["out_of_order"] ?? 0)),
            ]))))
        } else {
            fields.append(("imported", .null))
        }
        return .object(JSONObject(fields))
    }
}
