import EntitlementStore
import FoundationEssentials
import EntitlementBasics
import EntitlementIngest
import EntitlementJSON
import EntitlementModel

/// What `transfer` shows before it asks (stderr) and prints when done (stdout).
enum TransferReport {
    /// The transactions that will move, one row each, under a line naming both customers.
    static func preview(_ plan: CustomerTransfer.Plan) -> String {
        let from = plan.sourceBefore.customerUserID, to = plan.target.customerUserID
        var out = "Will move \(count(plan.moved)) from '\(Terminal.escape(from))' to '\(Terminal.escape(to))'"
        out += plan.createsTarget ? " (a new profile):\n" : ":\n"
        out += table(plan).render().split(separator: "\n").map { "  " + $0 + "\n" }.joined()
        return out
    }

    static func result(_ plan: CustomerTransfer.Plan, dryRun: Bool, json: Bool, context: Context) {
        let from = plan.sourceBefore.customerUserID, to = plan.target.customerUserID
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("changed", .bool(!plan.moved.isEmpty)),
                ("dry_run", .bool(dryRun)),
                ("from", .string(from)),
                ("to", .string(to)),
                ("created_profile", .bool(!plan.moved.isEmpty && plan.createsTarget)),
                ("transactions", .array(plan.moved.map(JSONValue.string))),
                ("at", plan.moved.isEmpty ? .null : lastTransfer(of: plan.target)),
            ]))))
            return
        }
        guard !plan.moved.isEmpty else {
            context.stdout.write("Nothing changed: '\(Terminal.escape(from))' has no \(plan.sourceBefore.transactions.isEmpty ? "purchases" : "store purchases") to transfer.\n")
            return
        }
        var out = "\(dryRun ? "Dry run: would move" : "Moved") \(count(plan.moved)) from '\(Terminal.escape(from))' to '\(Terminal.escape(to))'"
        out += plan.createsTarget ? " (\(dryRun ? "a new profile" : "new profile created")):\n" : ":\n"
        out += table(plan).render(width: context.outputWidth)
        context.stdout.write(out)
    }

    private static func count(_ ids: [String]) -> String { "\(ids.count) transaction\(ids.count == 1 ? "" : "s")" }

    private static func table(_ plan: CustomerTransfer.Plan) -> TextTable {
        var table = TextTable(headers: ["TRANSACTION", "STORE", "PRODUCT", "PURCHASED", "EXPIRES"])
        for id in plan.moved {
            guard let transaction = plan.target.transaction(id: id) else { continue }
            table.append([transaction.transactionID, transaction.store.rawValue, transaction.productID ?? "-",
                          HumanDate.format(transaction.purchasedAt), transaction.expiresAt.map(HumanDate.format) ?? "never"])
        }
        return table
    }

    /// The `at` of the entry this transfer appended to TO's `transfers` list.
    private static func lastTransfer(of profile: Profile) -> JSONValue {
        guard case .array(let items)? = profile.rawMember(IngestRecordKeys.transfers), let last = items.last?.objectValue?["at"] else { return .null }
        return last
    }
}
