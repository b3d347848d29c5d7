import EntitlementIngest
import FoundationEssentials
import EntitlementBasics
import EntitlementImport
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// `import --json` (docs/import.md, section 12.2). Keys are sorted by the writer.
extension ImportReport {
    static func json(_ outcomes: [ImportOutcome], session: ImportSession) -> JSONObject {
        let merges = outcomes.compactMap(\.merge)
        func sum(_ value: (MergeReport) -> Int) -> JSONValue { .int(merges.map(value).reduce(0, +)) }
        var object = JSONObject([
            ("documents", .array(outcomes.map { .object(document($0)) })),
            ("dry_run", .bool(session.request.dryRun)),
            ("jws_decoded", .int(session.jwsDecoded)),
            // True when at least one JWS was decoded and every one was verified.
            ("signatures_verified", .bool(session.jwsDecoded > 0 && session.jwsVerified == session.jwsDecoded)),
            ("totals", .object(JSONObject([
                ("config_added", .int(outcomes.map(\.configAdded.count).reduce(0, +))),
                ("config_not_added", .int(outcomes.map(\.configNotAdded.count).reduce(0, +))),
                ("disagreements", .int(outcomes.map(\.disagreements).reduce(0, +))),
                ("not_compared", .int(outcomes.map(\.notCompared).reduce(0, +))),
                ("documents", .object(JSONObject([("imported", .int(outcomes.filter { !$0.failed }.count)), ("failed", .int(outcomes.filter(\.failed).count))]))),
                ("renewal_info", .object(JSONObject([("added", sum(\.renewalsAdded.count)), ("updated", sum(\.renewalsUpdated.count)), ("unchanged", sum(\.renewalsUnchanged.count))]))),
                ("transactions", .object(JSONObject([("added", sum(\.transactionsAdded.count)), ("updated", sum(\.transactionsUpdated.count)), ("unchanged", sum(\.transactionsUnchanged.count))]))),
            ]))),
        ])
        if session.request.dryRun {
            object["profiles"] = .object(JSONObject(session.resultingProfiles.map { ($0.profile.customerUserID, $0.profile.json) }))
        }
        return object
    }

    static func document(_ outcome: ImportOutcome) -> JSONObject {
        let document = outcome.document
        let merge = outcome.merge
        func keys(_ list: [TransactionKey]?) -> JSONValue {
            .array((list ?? []).map { .object(JSONObject([("store", .string($0.store)), ("transaction_id", .string($0.transactionID))])) })
        }
        func strings(_ list: [String]?) -> JSONValue { .array((list ?? []).map(JSONValue.string)) }
        return JSONObject([
            ("config_added", .array(outcome.configAdded.map(Self.json))),
            ("config_not_added", .array(outcome.configNotAdded.map(Self.json))),
            ("custom_attributes", .object(JSONObject([("set", strings(merge?.attributesSet)), ("unchanged", strings(merge?.attributesUnchanged))]))),
            ("detail", .string(document?.detail)),
            ("document_time", .string(outcome.failed ? nil : outcome.time.map(ISODate.format))),
            ("error", outcome.error.map { .object($0.json) } ?? .null),
            ("file", .string(outcome.name)),
            ("format", .string(document?.format.rawValue)),
            ("at_ignored", .bool(outcome.atIgnored)),
            ("profile_created", .bool(merge?.createdProfile ?? false)),
            ("renewal_info", .object(JSONObject([("added", strings(merge?.renewalsAdded)), ("unchanged", strings(merge?.renewalsUnchanged)), ("updated", strings(merge?.renewalsUpdated))]))),
            ("shape", .string(document?.shape.rawValue)),
            ("skipped", strings(document?.skipped)),
            ("status", .string(outcome.failed ? "failed" : "imported")),
            ("time_source", .string(outcome.failed ? nil : outcome.timeSource?.rawValue)),
            ("transactions", .object(JSONObject([("added", keys(merge?.transactionsAdded)), ("unchanged", keys(merge?.transactionsUnchanged)), ("updated", keys(merge?.transactionsUpdated))]))),
            ("user", .string(merge == nil ? nil : outcome.user)),
            ("user_source", .string(merge == nil ? nil : outcome.userSource?.rawValue)),
            ("verdicts", .array(outcome.verdicts.map { row in
                .object(JSONObject([
                    ("accepted", .array(row.accepted.map { .string($0.rawValue) })),
                    ("entitlement", row.entitlement == "-" ? .null : .string(row.entitlement)),
                    ("evidence", .string(row.evidence)),
                    ("note", .string(row.note)),
                    ("ours", .string(row.ours?.rawValue)),
                    ("result", .string(row.result.rawValue)),
                    ("subject", .string(row.subject)),
                    ("vendor", .string(row.vendorState)),
                ]))
            })),
            ("warnings", strings(outcome.warnings)),
        ])
    }

    static func json(_ addition: ConfigAddition) -> JSONValue {
        .object(JSONObject([("entitlement", .string(addition.entitlement)), ("product_id", .string(addition.productID)),
                            ("created_entitlement", .bool(addition.createdEntitlement))]))
    }
}
