import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// What `grant --stdin` prints: one JSON line per input line, or a summary table.
enum BulkGrantReport {
    /// `{"access_level": {…}, "customer_user_id": …, "line": 3, "result": "granted", …}`, keys
    /// sorted at every depth; a failed line carries the shared error object
    /// `{"error": {"code", "exit_code", "hint", "message"}}`.
    static func jsonLine(_ result: BulkGrant.Result, dryRun: Bool, at now: Date) -> [UInt8] {
        var object = JSONObject([("line", .int(result.line.number)), ("customer_user_id", .string(result.line.userID ?? result.line.displayID))])
        object["result"] = .string(outcome(result))
        object["dry_run"] = .bool(dryRun)
        if let error = result.error {
            object["error"] = .object(error.json)
        } else if let first = result.line.duplicateOf {
            object["duplicate_of_line"] = .int(first)
        } else if let outcome = result.outcome {
            object["changed"] = .bool(outcome.changed)
            object["created_profile"] = .bool(outcome.createdProfile)
            object["profile_id"] = .string(outcome.profile.profileID)
            object["transaction_id"] = .string(outcome.transaction.transactionID)
            object["extends_transaction_id"] = .string(outcome.extendsTransactionID)
            if let level = result.level { object["access_level"] = .object(level.json) }
        }
        object["evaluated_at"] = .string(ISODate.format(now))
        var bytes: [UInt8] = []
        JSONWriter(style: .compact).write(.object(object), indent: 0, into: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    /// `granted`, `unchanged` (idempotency key), `duplicate` (an earlier line), `failed`.
    static func outcome(_ result: BulkGrant.Result) -> String {
        if result.error != nil { return "failed" }
        if result.line.duplicateOf != nil { return "duplicate" }
        return result.outcome?.changed == true ? "granted" : "unchanged"
    }

    static func summary(_ totals: BulkGrant.Totals, entitlement: String, lines: Int, dryRun: Bool, allOrNothing: Bool,
                        failures: [BulkGrant.Result], notListed: Int = 0) -> String {
        var out = ""
        if allOrNothing, totals.failed > 0 {
            out += "Nothing written (--all-or-nothing): \(totals.failed) of \(lines) line\(lines == 1 ? "" : "s") failed.\n"
        } else {
            out += "\(dryRun ? "Dry run: would grant" : "Granted") \(Terminal.escape(entitlement)) to \(totals.granted) customer\(totals.granted == 1 ? "" : "s").\n"
        }
        var table = TextTable(headers: ["RESULT", "COUNT"])
        table.append(["granted", String(totals.granted)])
        table.append(["new profiles", String(totals.createdProfiles)])
        table.append(["unchanged (idempotency key)", String(totals.unchanged)])
        table.append(["duplicate lines", String(totals.duplicates)])
        table.append(["failed", String(totals.failed)])
        out += "\n" + table.render()
        if !failures.isEmpty {
            out += "\nFailed:\n"
            for failure in failures { out += "  \(failureLine(failure))\n" }
            if notListed > 0 { out += "  … and \(notListed) more (each on standard error).\n" }
        }
        return out
    }

    /// `line 5: '\tbad': the user id starts or ends with white space.`: the summary's line for
    /// a failure, and (after `Error: `) what standard error says as it happens.
    static func failureLine(_ failure: BulkGrant.Result) -> String {
        let message = failure.error?.description ?? ""
        let detail = message.hasPrefix("line \(failure.line.number): ") ? String(message.dropFirst("line \(failure.line.number): ".count)) : message
        return "line \(failure.line.number): '\(Terminal.escape(failure.line.displayID))': \(detail)"
    }
}
