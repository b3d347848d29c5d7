/// `history` for people: one row per event.
enum HistoryText {
    /// With `audit` (a team store), each row also names its commit and author, and a `!`
    /// flags an actor that is not the commit's author.
    static func render(_ events: [HistoryEvent], audit: Bool = false) -> String {
        var headers = ["DATE", "EVENT", "TRANSACTION", "PRODUCT", "STORE", "STARTS", "EXPIRES", "ENV", "BY", "REASON"]
        if audit { headers += ["COMMIT", "AUTHOR", "SIGNATURE"] }
        var table = TextTable(headers: headers)
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
            let flagged = event.actorMatchesAuthor == false
            var row = [
                HumanDate.format(event.at), what, transaction.transactionID, product, transaction.store.rawValue,
                transaction.startsAt.map(HumanDate.format) ?? "-", transaction.expiresAt.map(HumanDate.format) ?? "never",
                transaction.environment.rawValue, (flagged ? "! " : "") + (event.actor ?? "-"), event.reason ?? "-",
            ]
            if audit {
                row += [event.recorded.map { String($0.id.prefix(10)) } ?? "-", event.recorded?.author.description ?? "-",
                        event.recorded?.signatureDescription ?? "-"]
            }
            table.append(row)
        }
        var text = table.render()
        if audit, events.contains(where: { $0.actorMatchesAuthor == false }) {
            text += "! the recorded actor is not the author of the commit that recorded the change.\n"
        }
        return text
    }
}
