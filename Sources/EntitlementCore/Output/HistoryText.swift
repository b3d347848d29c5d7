/// `history` for people: one row per event.
enum HistoryText {
    static func render(_ events: [HistoryEvent]) -> String {
        var table = TextTable(headers: ["DATE", "EVENT", "TRANSACTION", "PRODUCT", "STORE", "STARTS", "EXPIRES", "ENV", "BY", "REASON"])
        for event in events {
            let transaction = event.transaction
            let what: String
            switch event.kind {
            case .purchase: what = transaction.type.rawValue
            case .grant: what = "grant"
            case .revocation: what = "revocation"
            case .restore: what = "restore"
            }
            let product = transaction.isManualGrant ? "\(transaction.entitlement ?? "?") (manual)" : (transaction.productID ?? "-")
            table.append([
                HumanDate.format(event.at), what, transaction.transactionID, product, transaction.store.rawValue,
                transaction.startsAt.map(HumanDate.format) ?? "-", transaction.expiresAt.map(HumanDate.format) ?? "never",
                transaction.environment.rawValue, event.actor ?? "-", event.reason ?? "-",
            ])
        }
        return table.render()
    }
}
