import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// What grant and revoke print: the change, then the resulting access level.
enum MutationReport {
    static func grant(_ outcome: GrantOutcome, level: AccessLevel, dryRun: Bool, json: Bool, at now: Date, context: Context) {
        let user = outcome.profile.customerUserID
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("changed", .bool(outcome.changed)),
                ("dry_run", .bool(dryRun)),
                ("created_profile", .bool(outcome.createdProfile)),
                ("customer_user_id", .string(user)),
                ("profile_id", .string(outcome.profile.profileID)),
                ("extends_transaction_id", .string(outcome.extendsTransactionID)),
                ("transaction", outcome.transaction.json),
                ("access_level", .object(level.json)),
                ("evaluated_at", .string(ISODate.format(now))),
            ]))))
            return
        }
        let prefix = dryRun ? "Dry run: would " : ""
        var out = ""
        if !outcome.changed {
            out += "No change: idempotency key '\(Terminal.escape(outcome.transaction.idempotencyKey ?? ""))' already granted \(Terminal.escape(outcome.transaction.transactionID)).\n"
        } else {
            if outcome.createdProfile { out += "\(dryRun ? "Dry run: would create" : "Created") a new profile for '\(Terminal.escape(user))'.\n" }
            let term = outcome.transaction.expiresAt.map { "until " + HumanDate.format($0) } ?? "for life"
            let start = outcome.transaction.startsAt.map { ", starting " + HumanDate.format($0) } ?? ""
            out += "\(dryRun ? prefix + "grant" : "Granted") \(Terminal.escape(level.id)) to '\(Terminal.escape(user))' \(term)\(start)"
            if let extends = outcome.extendsTransactionID { out += " (extends \(Terminal.escape(extends)))" }
            out += ".\n"
        }
        out += "\n" + AccessLevelText.table([level], at: now, style: Style(enabled: context.useColor), width: context.outputWidth)
        context.stdout.write(out)
    }

    static func revoke(profile: Profile, revoked: [String], level: AccessLevel, alsoAffected: [String], dryRun: Bool, json: Bool,
                       at now: Date, context: Context) {
        let storeSource = level.isActive && level.grantType != .manual ? level : nil
        if json {
            context.stdout.write(JSONWriter().string(.object(JSONObject([
                ("changed", .bool(!revoked.isEmpty)),
                ("dry_run", .bool(dryRun)),
                ("customer_user_id", .string(profile.customerUserID)),
                ("profile_id", .string(profile.profileID)),
                ("revoked", .array(revoked.compactMap { profile.transaction(id: $0)?.json })),
                ("access_level", .object(level.json)),
                ("still_active_from_store", .bool(storeSource != nil)),
                ("also_affected_entitlements", .array(alsoAffected.map(JSONValue.string))),
                ("evaluated_at", .string(ISODate.format(now))),
            ]))))
            return
        }
        var out: String
        if revoked.isEmpty {
            out = "Nothing changed: '\(Terminal.escape(profile.customerUserID))' has no active or scheduled grant of \(Terminal.escape(level.id)) to revoke.\n"
        } else {
            out = "\(dryRun ? "Dry run: would revoke" : "Revoked") \(revoked.count) transaction\(revoked.count == 1 ? "" : "s"): \(revoked.map(Terminal.escape).joined(separator: ", ")).\n"
        }
        if !alsoAffected.isEmpty {
            out += "The revoked purchase\(revoked.count == 1 ? "" : "s") also unlocked: \(alsoAffected.map(Terminal.escape).joined(separator: ", ")); check them with 'entitlement status'.\n"
        }
        if let source = storeSource {
            out += "\(Terminal.escape(level.id)) stays active: it comes from a store purchase (\(Terminal.escape(source.store?.rawValue ?? "?")), \(Terminal.escape(source.productID ?? "?"))). Use --include-store to revoke it too.\n"
        }
        out += "\n" + AccessLevelText.table([level], at: now, style: Style(enabled: context.useColor), width: context.outputWidth)
        context.stdout.write(out)
    }
}
