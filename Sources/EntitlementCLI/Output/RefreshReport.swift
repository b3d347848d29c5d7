import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementImport
import EntitlementIngest

/// What `refresh` and `ingest --refresh` share: the API key's lookup and the printed result.
enum RefreshRun {
    /// The RevenueCat API key of the secrets file (`--secrets`, `$ENTITLEMENT_SECRETS`, or the
    /// default place); exit 2 when the file is refused or has no key.
    static func apiKey(secretsFlag: String?, environment: [String: String]) throws(EntitlementError) -> String {
        let path = SecretsFile.location(flag: secretsFlag, environment: environment)
        return try SubscriberRefresh.apiKey(try SecretsFile.load(path), secretsPath: path)
    }

    /// One line (`Refreshed alice from RevenueCat: 1 transaction added, …`), or one JSON object.
    static func write(_ result: SubscriberRefresh.Result, json: Bool, to out: OutputSink, quiet: Bool) {
        let merge = result.merge
        if json {
            out.write(JSONWriter().string(.object(JSONObject([
                ("user", .string(result.user)), ("vendor", .string("revenuecat")), ("changed", .bool(result.changed)),
                ("transactions_added", .int(merge?.transactionsAdded.count ?? 0)), ("transactions_updated", .int(merge?.transactionsUpdated.count ?? 0)),
                ("renewals_added", .int(merge?.renewalsAdded.count ?? 0)), ("renewals_updated", .int(merge?.renewalsUpdated.count ?? 0)),
                ("created_profile", .bool(merge?.createdProfile ?? false)),
            ]))))
            return
        }
        guard !quiet else { return }
        out.write("Refreshed \(Terminal.escape(result.user)) from RevenueCat: \(describe(merge)).\n")
    }

    static func describe(_ merge: MergeReport?) -> String {
        guard let merge, merge.changed else { return "no change" }
        var parts: [String] = []
        if merge.createdProfile { parts.append("new profile") }
        func count(_ n: Int, _ what: String, _ done: String) { if n > 0 { parts.append("\(n) \(what)\(n == 1 ? "" : "s") \(done)") } }
        count(merge.transactionsAdded.count, "transaction", "added")
        count(merge.transactionsUpdated.count, "transaction", "updated")
        count(merge.renewalsAdded.count + merge.renewalsUpdated.count, "renewal info", "changed")
        return parts.isEmpty ? "attributes set" : parts.joined(separator: ", ")
    }
}
