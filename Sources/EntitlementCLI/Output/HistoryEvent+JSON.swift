import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementTeam

extension HistoryEvent {
    /// The `--json` object: the event, then the whole transaction as stored.
    /// A voided duplicate also names the grant it repeated (`duplicate_of`).
    var json: JSONObject {
        var object = JSONObject([
            ("at", .string(ISODate.format(at))),
            ("event", .string(kind.rawValue)),
            ("transaction_id", .string(transaction.transactionID)),
            ("actor", .string(actor)),
            ("reason", .string(reason)),
        ])
        if voidsDuplicate { object["duplicate_of"] = .string(transaction.duplicateOf) }
        if let transfer {
            object["direction"] = .string(transfer.direction.rawValue)
            object[transfer.direction == .in ? "from" : "to"] = .string(transfer.other)
        }
        // A purchase that left holds only its id here; the other customer's history has it whole.
        object["transaction"] = holdsStandIn ? .null : transaction.json
        return object
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
