import EntitlementBasics

/// The one-line description of a mutation: a team store's commit message.
package enum ChangeSummary {
    /// `grant premium to alice@example.com for 1m: Outage INC-42`.
    package static func grant(_ request: GrantRequest) -> String {
        var text = "grant \(request.entitlement) to \(request.userID)"
        switch request.term {
        case .duration(let duration): text += " for \(describe(duration))"
        case .until(let date): text += " until \(ISODate.format(date))"
        case .lifetime: text += " for life"
        }
        if let startsAt = request.startsAt { text += " from \(ISODate.format(startsAt))" }
        return withReason(text, request.reason)
    }

    /// `revoke premium from alice@example.com (including store purchases): Refunded`.
    package static func revoke(_ request: RevokeRequest, userID: String) -> String {
        var text = "revoke \(request.entitlement) from \(userID)"
        if let transactionID = request.transactionID { text += " (transaction \(transactionID))" }
        if request.includeStore { text += " (including store purchases)" }
        return withReason(text, request.reason)
    }

    /// `grant premium to 1200 customers for 7d: Outage INC-42` (`grant --stdin`).
    package static func bulkGrant(_ request: GrantRequest, customers: Int) -> String {
        var single = request
        single.userID = "\(customers) customer\(customers == 1 ? "" : "s")"
        return grant(single)
    }

    /// `restore premium of alice@example.com: Revoked the wrong grant`.
    package static func restore(_ request: RestoreRequest, userID: String) -> String {
        var text = "restore \(request.entitlement) of \(userID)"
        if let transactionID = request.transactionID { text += " (transaction \(transactionID))" }
        return withReason(text, request.reason)
    }

    /// `import 2 documents: a.json, b.json`.
    package static func `import`(_ names: [String]) -> String {
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        return "import \(names.count) document\(names.count == 1 ? "" : "s"): \(shown)"
    }

    /// `1m`, `2w`, `12h`, `P1M3D`: the shortest spelling of a duration.
    static func describe(_ duration: GrantDuration) -> String {
        if duration.seconds == 0 {
            return duration.months % 12 == 0 ? "\(duration.months / 12)y" : "\(duration.months)m"
        }
        if duration.months == 0 {
            if duration.seconds % (7 * 86_400) == 0 { return "\(duration.seconds / (7 * 86_400))w" }
            if duration.seconds % 86_400 == 0 { return "\(duration.seconds / 86_400)d" }
            if duration.seconds % 3600 == 0 { return "\(duration.seconds / 3600)h" }
        }
        return "\(duration.months)m + \(duration.seconds)s"
    }

    private static func withReason(_ text: String, _ reason: String?) -> String {
        // One line: a reason with line breaks keeps them in the commit body only.
        guard let reason, !reason.isEmpty else { return text }
        return "\(text): \(reason)"
    }
}
