import FoundationEssentials

extension HistoryEvent {
    /// The `--json` object: the event, then the whole transaction as stored.
    public var json: JSONObject {
        JSONObject([
            ("at", .string(ISODate.format(at))),
            ("event", .string(kind.rawValue)),
            ("transaction_id", .string(transaction.transactionID)),
            ("actor", .string(actor)),
            ("reason", .string(reason)),
            ("transaction", transaction.json),
        ])
    }
}
