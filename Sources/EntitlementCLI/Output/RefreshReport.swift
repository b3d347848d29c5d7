import EntitlementBasics
import EntitlementImport
import EntitlementIngest
import EntitlementJSON
import EntitlementModel

/// What `refresh` and `ingest --refresh` share: the vendor's source from the secrets file,
/// and the printed result.
enum RefreshRun {
    /// The source of `vendor` from the secrets file (`--secrets`, `$ENTITLEMENT_SECRETS`, or the
    /// default place); exit 2 when the file is refused or lacks the vendor's credentials.
    static func source(_ vendor: Vendor, secretsFlag: String?, context: Context, client: VendorAPIClient, apiBase: String?,
                       options: RefreshSources.Options) throws(EntitlementError) -> any RefreshSource {
        let path = SecretsFile.location(flag: secretsFlag, environment: context.environment)
        return try RefreshSources.make(vendor, secrets: try SecretsFile.load(path), secretsPath: path, client: client, apiBase: apiBase, options: options)
    }

    /// One line (`Refreshed alice from Stripe: 1 transaction added, …`), or one JSON object.
    static func write(_ result: CustomerRefresh.Result, json: Bool, to out: OutputSink, quiet: Bool) {
        if json {
            out.write(JSONWriter().string(.object(jsonObject(result))))
            return
        }
        guard !quiet else { return }
        out.write("Refreshed \(Terminal.escape(result.user)) from \(result.vendor.displayName): \(describe(result.merge)).\n")
    }

    static func jsonObject(_ result: CustomerRefresh.Result) -> JSONObject {
        let merge = result.merge
        return JSONObject([
            ("user", .string(result.user)), ("vendor", .string(result.vendor.rawValue)), ("changed", .bool(result.changed)),
            ("transactions_added", .int(merge?.transactionsAdded.count ?? 0)), ("transactions_updated", .int(merge?.transactionsUpdated.count ?? 0)),
            ("renewals_added", .int(merge?.renewalsAdded.count ?? 0)), ("renewals_updated", .int(merge?.renewalsUpdated.count ?? 0)),
            ("created_profile", .bool(merge?.createdProfile ?? false)),
        ])
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
