import FoundationEssentials

/// How access levels read in tables and in `check`'s one line.
enum AccessLevelText {
    /// `alice  premium  active  expires 2026-02-03 14:22 UTC (in 19 days)`
    static func checkLine(user: String, level: AccessLevel, at date: Date, hasProfile: Bool, style: Style) -> String {
        let detail = hasProfile ? expiry(level, at: date) : "no profile"
        return "\(Terminal.escape(user))  \(Terminal.escape(level.id))  \(style.state(level.state.rawValue, level.state))  \(detail)\n"
    }

    /// The expiry column: when access ends, started, or would start.
    static func expiry(_ level: AccessLevel, at date: Date) -> String {
        switch level.state {
        case .never: return "never granted"
        case .scheduled:
            guard let start = level.startsAt else { return "scheduled" }
            return "starts " + HumanDate.format(start, relativeTo: date)
        case .revoked:
            guard let revoked = level.revokedAt else { return "revoked" }
            return "revoked " + HumanDate.format(revoked, relativeTo: date)
        case .gracePeriod:
            guard let grace = level.gracePeriodExpiresAt else { return "in grace period" }
            return "grace ends " + HumanDate.format(grace, relativeTo: date)
        default:
            guard let expires = level.expiresAt else { return level.isActive ? "never expires" : "no expiry" }
            return (expires > date ? "expires " : "expired ") + HumanDate.format(expires, relativeTo: date)
        }
    }

    /// The entitlements table of `status`.
    static func table(_ levels: [AccessLevel], at date: Date, style: Style) -> String {
        var table = TextTable(headers: ["ENTITLEMENT", "STATE", "EXPIRES", "RENEWAL", "STORE", "PRODUCT"])
        for level in levels {
            let product = level.productID ?? (level.grantType == .manual ? "(manual grant)" : "-")
            table.append([level.id, level.state.rawValue, expiry(level, at: date), level.state == .never ? "-" : level.renewState.rawValue,
                          level.store?.rawValue ?? "-", product])
        }
        table.decorate = { row, column, text in column == 1 ? style.state(text, levels[row].state) : text }
        return table.render()
    }
}
