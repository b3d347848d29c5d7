import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// How access levels read in tables and in `check`'s one line.
enum AccessLevelText {
    /// `alice  premium  active  expires 2026-02-03 14:22 UTC (in 19 days)`
    static func checkLine(user: String, level: AccessLevel, at date: Date, hasProfile: Bool, style: Style) -> String {
        let detail = hasProfile ? expiry(level, at: date) : "no profile"
        return "\(Terminal.escape(user))  \(Terminal.escape(level.id))  \(style.state(level.state.rawValue, level.state))  \(detail)\n"
    }

    /// The expiry column: when access ends, started, or would start.
    /// Without `relative`, the date alone (`expires 2026-02-03 14:22 UTC`): the short form.
    static func expiry(_ level: AccessLevel, at date: Date, relative: Bool = true) -> String {
        func when(_ instant: Date) -> String { relative ? HumanDate.format(instant, relativeTo: date) : HumanDate.format(instant) }
        switch level.state {
        case .never: return "never granted"
        case .scheduled:
            guard let start = level.startsAt else { return "scheduled" }
            return "starts " + when(start)
        case .revoked:
            guard let revoked = level.revokedAt else { return "revoked" }
            return "revoked " + when(revoked)
        case .paused:
            guard let resumes = level.resumesAt else { return "paused" }
            return "resumes " + when(resumes)
        case .gracePeriod:
            guard let grace = level.gracePeriodExpiresAt else { return "in grace period" }
            return "grace ends " + when(grace)
        default:
            guard let expires = level.expiresAt else { return level.isActive ? "never expires" : "no expiry" }
            return (expires > date ? "expires " : "expired ") + when(expires)
        }
    }

    /// The entitlements table of `status`, grant and revoke, fitted to `width` (nil: in full).
    static func table(_ levels: [AccessLevel], at date: Date, style: Style, width: Int? = nil) -> String {
        records(levels, at: date, style: style).table.render(width: width)
    }

    /// The access levels as records. On a narrow terminal the table drops, in order: the
    /// relative dates, then PRODUCT, STORE and RENEWAL; ENTITLEMENT, STATE and EXPIRES stay (else vertical records).
    static func records(_ levels: [AccessLevel], at date: Date, style: Style, userID: String? = nil) -> RecordOutput {
        var table = TextTable(columns: [
            .init("ENTITLEMENT"), .init("STATE"), .init("EXPIRES"), .init("RENEWAL", dropRank: 3),
            .init("STORE", dropRank: 2), .init("PRODUCT", dropRank: 1),
        ])
        var output = RecordOutput(table: table, fieldNames: [
            "customer_user_id", "id", "state", "is_active", "expires_at", "renew_state", "store", "product_id", "evaluated_at",
        ])
        for level in levels {
            let product = level.productID ?? (level.grantType == .manual ? "(manual grant)" : "-")
            table.append([level.id, level.state.rawValue, expiry(level, at: date), level.state == .never ? "-" : level.renewState.rawValue,
                          level.store?.rawValue ?? "-", product],
                         short: [2: expiry(level, at: date, relative: false)])
            output.fields.append([userID ?? "", level.id, level.state.rawValue, level.isActive ? "true" : "false",
                                  level.expiresAt.map(ISODate.format) ?? "", level.renewState.rawValue, level.store?.rawValue ?? "",
                                  level.productID ?? "", ISODate.format(date)])
            var object = level.json
            object["customer_user_id"] = .string(userID)
            object["evaluated_at"] = .string(ISODate.format(date))
            output.objects.append(object)
        }
        table.decorate = { row, column, text in column == 1 ? style.state(text, levels[row].state) : text }
        output.table = table
        return output
    }
}
