import EntitlementBasics
import EntitlementRules
import EntitlementTeam

/// `history` as records: one row per event.
enum HistoryText {
    /// The events as records. On a narrow terminal the table drops, in order: ENV, STARTS,
    /// STORE, TRANSACTION, BY and EXPIRES; DATE, EVENT, PRODUCT and REASON stay (else vertical records).
    /// With `audit` (a team store), each row also names its commit, author and signature (dropped
    /// first), and a `!` before BY flags an actor that is not the commit's author.
    static func records(_ events: [AuditedEvent], audit: Bool = false) -> RecordOutput {
        var columns: [TextTable.Column] = [
            .init("DATE"), .init("EVENT"), .init("TRANSACTION", dropRank: 4), .init("PRODUCT"), .init("STORE", dropRank: 3),
            .init("STARTS", dropRank: 2), .init("EXPIRES", dropRank: 6), .init("ENV", dropRank: 1), .init("BY", dropRank: 5), .init("REASON"),
        ]
        var fieldNames = ["at", "event", "transaction_id", "product_id", "entitlement", "store", "starts_at", "expires_at", "environment", "actor", "reason"]
        if audit {
            columns += [.init("COMMIT", dropRank: -1), .init("AUTHOR", dropRank: -2), .init("SIGNATURE", dropRank: -3)]
            fieldNames += ["commit", "author", "signature", "actor_matches_author"]
        }
        var table = TextTable(columns: columns)
        var output = RecordOutput(table: table, fieldNames: fieldNames)
        for audited in events {
            let event = audited.event
            let transaction = event.transaction
            let what = name(event)
            let product = transaction.isManualGrant ? "\(transaction.entitlement ?? "?") (manual)" : (transaction.productID ?? "-")
            let flagged = audited.actorMatchesAuthor == false
            var row = [
                HumanDate.format(event.at), what, transaction.transactionID, product, transaction.store.rawValue,
                transaction.startsAt.map(HumanDate.format) ?? "-", transaction.expiresAt.map(HumanDate.format) ?? "never",
                transaction.environment.rawValue, (flagged ? "! " : "") + (event.actor ?? "-"), event.reason ?? "-",
            ]
            var fields = [
                ISODate.format(event.at), what, transaction.transactionID, transaction.productID ?? "", transaction.entitlement ?? "",
                transaction.store.rawValue, transaction.startsAt.map(ISODate.format) ?? "", transaction.expiresAt.map(ISODate.format) ?? "",
                transaction.environment.rawValue, event.actor ?? "", event.reason ?? "",
            ]
            if audit {
                row += [audited.recorded.map { String($0.id.prefix(10)) } ?? "-", audited.recorded?.author.description ?? "-",
                        audited.recorded?.signatureDescription ?? "-"]
                fields += [audited.recorded?.id ?? "", audited.recorded?.author.description ?? "", audited.recorded?.signatureDescription ?? "",
                           audited.actorMatchesAuthor.map { $0 ? "true" : "false" } ?? ""]
            }
            table.append(row)
            output.fields.append(fields)
            output.objects.append(audit ? audited.auditJSON : event.json)
        }
        output.table = table
        return output
    }

    /// The note under an audit table when some actor is not its commit's author.
    static func mismatchNote(_ events: [AuditedEvent]) -> String? {
        events.contains { $0.actorMatchesAuthor == false } ? "! the recorded actor is not the author of the commit that recorded the change.\n" : nil
    }

    /// The EVENT column: the transaction type for purchases, else grant or revocation.
    static func name(_ event: HistoryEvent) -> String {
        switch event.kind {
        case .purchase: return event.transaction.type.rawValue
        case .grant: return "grant"
        case .revocation: return "revocation"
        case .restore: return "restore"
        }
    }
}
