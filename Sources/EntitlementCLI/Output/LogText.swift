import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementTeam

/// `log`'s records in every `--output` format. On a narrow terminal the table drops, in
/// order: TRANSACTION, AUTHOR, COMMIT and REASON; DATE, CUSTOMER, EVENT, ENTITLEMENT and BY stay.
enum LogText {
    static func records(_ records: [LogRecord], team: Bool) -> RecordOutput {
        var columns: [TextTable.Column] = [
            .init("DATE"), .init("CUSTOMER"), .init("EVENT"), .init("ENTITLEMENT"), .init("BY"), .init("REASON", dropRank: 4),
            .init("TRANSACTION", dropRank: 1),
        ]
        var fieldNames = ["at", "customer_user_id", "event", "entitlement", "actor", "reason", "transaction_id", "store", "product_id"]
        if team {
            columns += [.init("COMMIT", dropRank: 3), .init("AUTHOR", dropRank: 2)]
            fieldNames += ["commit", "author"]
        }
        var output = RecordOutput(table: TextTable(columns: columns), fieldNames: fieldNames)
        for record in records {
            let event = record.event, transaction = event.transaction
            let name = LogQuery.Event(event.kind).rawValue
            let entitlement = record.entitlements.joined(separator: ",")
            var row = [HumanDate.format(event.at), record.customer, name, entitlement.isEmpty ? "-" : entitlement, event.actor ?? "-",
                       event.reasonDescription ?? "-", transaction.transactionID]
            var fields = [ISODate.format(event.at), record.customer, name, entitlement, event.actor ?? "", event.reason ?? "",
                          transaction.transactionID, transaction.store.rawValue, transaction.productID ?? ""]
            let entitlementList: JSONValue = .array(record.entitlements.map { JSONValue.string($0) })
            var object = JSONObject([
                ("at", JSONValue.string(ISODate.format(event.at))), ("customer_user_id", JSONValue.string(record.customer)),
                ("event", JSONValue.string(name)), ("entitlement", entitlementList),
            ])
            object["actor"] = .string(event.actor)
            object["reason"] = .string(event.reason)
            object["transaction_id"] = .string(transaction.transactionID)
            object["store"] = event.holdsStandIn ? .null : .string(transaction.store.rawValue)
            object["product_id"] = .string(transaction.productID)
            if event.voidsDuplicate { object["duplicate_of"] = .string(transaction.duplicateOf) }
            if let transfer = event.transfer {
                object["direction"] = .string(transfer.direction.rawValue)
                object[transfer.direction == .in ? "from" : "to"] = .string(transfer.other)
            }
            if team {
                let commit = record.recorded
                row += [commit.map { String($0.id.prefix(10)) } ?? "-", commit?.author.description ?? "-"]
                fields += [commit?.id ?? "", commit?.author.description ?? ""]
                object["commit"] = commit.map { .object(JSONObject([("id", .string($0.id)), ("author", .string($0.author.description))])) } ?? .null
            }
            output.table.append(row)
            output.fields.append(fields)
            output.objects.append(object)
        }
        return output
    }
}
