import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementRules
import EntitlementTeam

extension HistoryEvent {
    /// The `--json` object: the event, then the whole transaction as stored.
    package var json: JSONObject {
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

extension AuditedEvent {
    /// The `--json` object in a team store: the event, its recording commit, and whether
    /// the recorded actor is that commit's author.
    var auditJSON: JSONObject {
        var object = event.json
        guard let recorded else {
            object["commit"] = .null
            object["actor_matches_author"] = .null
            return object
        }
        var commit = JSONObject([("id", .string(recorded.id)), ("author", .string(recorded.author.description))])
        if let signature = recorded.signatureDescription { commit["signature"] = .string(signature) }
        object["commit"] = .object(commit)
        object["actor_matches_author"] = actorMatchesAuthor.map(JSONValue.bool) ?? .null
        return object
    }
}
