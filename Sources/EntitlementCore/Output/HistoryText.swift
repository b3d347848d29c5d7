/// `history` as records: one row per event.
enum HistoryText {
    /// The events as records. On a narrow terminal the table drops, in order: ENV, STARTS,
    /// STORE, TRANSACTION, BY and EXPIRES; DATE, EVENT, PRODUCT and REASON stay (else vertical records).
    static func records(_ events: [HistoryEvent]) -> RecordOutput {
        var table = TextTable(columns: [
            .init("DATE"), .init("EVENT"), .init("TRANSACTION", dropRank: 4), .init("PRODUCT"), .init("STORE", dropRank: 3),
            .init("STARTS", dropRank: 2), .init("EXPIRES", dropRank: 6), .init("ENV", dropRank: 1), .init("BY", dropRank: 5), .init("REASON"),
        ])
        var output = RecordOutput(table: table, fieldNames: [
            "at", "event", "transaction_id", "product_id", "entitlement", "store", "starts_at", "expires_at", "environment", "actor", "reason",
        ])
        for event in events {
            let transaction = event.transaction
            let what = name(event)
            let product = transaction.isManualGrant ? "\(transaction.entitlement ?? "?") (manual)" : (transaction.productID ?? "-")
            table.append([
                HumanDate.format(event.at), what, transaction.transactionID, product, transaction.store.rawValue,
                transaction.startsAt.map(HumanDate.format) ?? "-", transaction.expiresAt.map(HumanDate.format) ?? "never",
                transaction.environment.rawValue, event.actor ?? "-", event.reason ?? "-",
            ])
            output.fields.append([
                ISODate.format(event.at), what, transaction.transactionID, transaction.productID ?? "", transaction.entitlement ?? "",
                transaction.store.rawValue, transaction.startsAt.map(ISODate.format) ?? "", transaction.expiresAt.map(ISODate.format) ?? "",
                transaction.environment.rawValue, event.actor ?? "", event.reason ?? "",
            ])
            output.objects.append(event.json)
        }
        output.table = table
        return output
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
