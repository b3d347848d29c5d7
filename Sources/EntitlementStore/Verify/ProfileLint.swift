import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel

/// The checks `verify` makes on one profile file; reads bytes, never writes.
///
/// They work on the JSON document rather than the decoded profile, so that one broken
/// field does not hide the others: every rule runs on every transaction.
struct ProfileLint: Sendable {
    let store: EntitlementStore
    /// Nil when config.json itself is broken: the checks that need it are skipped.
    let configuration: ProductConfiguration?

    /// Every problem of one profile file; `holding` is set to the store purchases it holds.
    func problems(in bytes: [UInt8], path: String, holding: inout PurchaseHolders.Holding?) -> [VerifyProblem] {
        var found: [VerifyProblem] = []
        func report(_ field: String?, _ message: String) { found.append(VerifyProblem(path: path, field: field, message: message)) }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            report(nil, "invalid JSON at \(error.description)")
            return found
        }
        guard case .object(let object) = document else {
            report(nil, "expected a profile object, found \(document.kindDescription)")
            return found
        }
        if let problem = Self.schemaProblem(object) {
            report("schema_version", problem)
            return found  // a newer file may mean anything; nothing else is judged
        }
        for unknown in UnknownKeys.profileProblems(object) { report(unknown.field, unknown.message) }
        holding = PurchaseHolders.holding(object)
        if case .string(let id)? = object["customer_user_id"], !id.isEmpty {
            let expected = store.profilePath(for: id)
            if expected != path {
                report("customer_user_id", "the file name does not match customer_user_id '\(id)': it belongs at \(expected)")
            }
        }
        if case .array(let items)? = object["transactions"] {
            var seen: [String: Int] = [:]
            for (index, item) in items.enumerated() {
                guard case .object(let transaction) = item else { continue }
                checkTransaction(transaction, index: index, seen: &seen, report: report)
            }
        }
        if case .object(let renewals)? = object["renewal_info"] {
            for (original, value) in renewals.entries {
                guard case .object(let renewal) = value else { continue }
                for problem in RenewalLint.problems(renewal, original: original) { report(problem.field, problem.message) }
            }
        }
        do {
            let profile = try Profile(json: document)
            for problem in aliasIndexProblems(profile) { report(IngestRecordKeys.aliases, problem) }
        } catch {
            // The decoder stops at the first wrong field; add it unless a rule above named it.
            if !found.contains(where: { $0.field == error.path }), !error.message.contains(" repeats ") {
                report(error.path.isEmpty ? nil : error.path, error.message)
            }
        }
        return found
    }

    private func checkTransaction(_ transaction: JSONObject, index: Int, seen: inout [String: Int],
                                  report: (String?, String) -> Void) {
        let prefix = "transactions[\(index)]"
        let type = transaction["type"]?.stringValue
        let store = transaction["store"]?.stringValue ?? Store.manual.rawValue
        if let id = transaction["transaction_id"]?.stringValue {
            if let first = seen.updateValue(index, forKey: store + " " + id) {
                report("\(prefix).transaction_id", "duplicate transaction id '\(id)' of store \(store): also transactions[\(first)]")
            }
        }
        let start = (transaction["starts_at"]?.stringValue ?? transaction["purchased_at"]?.stringValue).flatMap(ISODate.parse)
        if let expires = transaction["expires_at"]?.stringValue.flatMap(ISODate.parse), let start, expires < start {
            report("\(prefix).expires_at", "expires_at \(ISODate.format(expires)) is before the start \(ISODate.format(start))")
        }
        for typo in TransactionTypos.problems(transaction, prefix: prefix) { report(typo.field, typo.message) }
        if let signature = Self.unverifiedSignature(transaction) { report("\(prefix).\(signature)", Self.unverifiedMessage) }
        guard let configuration else { return }
        if type == TransactionType.manualGrant.rawValue {
            if let entitlement = transaction["entitlement"]?.stringValue, configuration.entitlement(entitlement) == nil {
                report("\(prefix).entitlement", "manual grant of '\(entitlement)', which config.json does not configure")
            }
        } else if type != TransactionType.consumablePurchase.rawValue, let product = transaction["product_id"]?.stringValue,
                  configuration.entitlements(unlockedBy: product).isEmpty {
            report("\(prefix).product_id", "product '\(product)' is not mapped to any entitlement in config.json")
        }
    }

    static let unverifiedMessage = "imported from App Store signed data whose signature was not verified (import --no-verify or --allow-xcode); "
        + "re-import it verified, see docs/security.md"

    /// `vendor.appstore.signature` when it says `unverified` (docs/store-format.md), else nil.
    static func unverifiedSignature(_ transaction: JSONObject) -> String? {
        let format = Vendor.appstore.rawValue
        guard case .object(let vendor)? = transaction["vendor"], case .object(let apple)? = vendor[format],
              apple[SignedDataState.vendorKey]?.stringValue == SignedDataState.unverified.rawValue else { return nil }
        return "vendor.\(format).\(SignedDataState.vendorKey)"
    }

    /// What is wrong with `schema_version`, if anything (missing means 1).
    static func schemaProblem(_ object: JSONObject) -> String? {
        guard let value = object["schema_version"] else { return nil }
        guard case .number(let text) = value, let version = Int(text) else {
            return "expected a whole number, found \(value.kindDescription == "a number" ? text(value) : value.kindDescription)"
        }
        if version > SchemaVersion.current { return SchemaVersion.newerMessage(version) }
        if version < 1 { return "must be 1 or more, found \(version)" }
        return nil
    }

    private static func text(_ value: JSONValue) -> String {
        if case .number(let text) = value { return text }
        return value.kindDescription
    }
}
