import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// `--explain`: which transactions were considered for an entitlement, and why.
enum ExplanationRenderer {
    static func text(_ evaluation: Evaluation, at date: Date, style: Style) -> String {
        let level = evaluation.accessLevel
        var out = "\(style.bold(Terminal.escape(level.id))): \(style.state(level.state.rawValue, level.state)) - \(evaluation.decision)\n"
        for consideration in evaluation.considerations {
            let transaction = consideration.transaction
            let marker = consideration.isDecisive ? "=>" : (consideration.verdict.givesAccess ? "+ " : "- ")
            let what = transaction.isManualGrant ? "manual grant" : (transaction.productID ?? "-")
            var line = "  \(marker) \(Terminal.escape(transaction.transactionID))  \(Terminal.escape(what))  \(Terminal.escape(transaction.store.rawValue))"
            if transaction.environment == .sandbox { line += "  sandbox" }
            line += ": \(consideration.verdict.rule)"
            if consideration.isDecisive { line += "  (decides)" }
            out += line + "\n"
        }
        for record in evaluation.ignored {
            out += "  ignored: \(Terminal.escape(record.description))\n"
        }
        return out
    }

    static func json(_ evaluation: Evaluation) -> JSONObject {
        var object = JSONObject([
            ("decision", .string(evaluation.decision)),
            ("transactions", .array(evaluation.considerations.map { consideration in
                .object(JSONObject([
                    ("transaction_id", .string(consideration.transaction.transactionID)),
                    ("product_id", .string(consideration.transaction.productID)),
                    ("store", .string(consideration.transaction.store.rawValue)),
                    ("verdict", .string(verdictName(consideration.verdict))),
                    ("gives_access", .bool(consideration.verdict.givesAccess)),
                    ("decisive", .bool(consideration.isDecisive)),
                    ("rule", .string(consideration.verdict.rule)),
                ]))
            })),
        ])
        // Only when something was left out, so answers about the present keep their shape.
        if !evaluation.ignored.isEmpty {
            object["ignored_after_evaluation_time"] = .array(evaluation.ignored.map { record in
                .object(JSONObject([
                    ("record", .string(record.kind.rawValue)),
                    ("subject", .string(record.subject)),
                    ("recorded_at", .string(ISODate.format(record.recordedAt))),
                ]))
            })
        }
        return object
    }

    static func verdictName(_ verdict: TransactionVerdict) -> String {
        switch verdict {
        case .givesAccess: return "gives_access"
        case .inGracePeriod: return "grace_period"
        case .notStarted: return "not_started"
        case .revoked: return "revoked"
        case .expired: return "expired"
        case .superseded: return "superseded"
        case .consumable: return "consumable"
        case .excludedEnvironment: return "excluded_environment"
        }
    }
}
