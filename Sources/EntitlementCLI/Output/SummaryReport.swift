import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules
import EntitlementStore

/// What `summary` prints: per entitlement, counts per state, expiring soon, billing trouble, stores.
enum SummaryReport {
    /// The states in the order they are shown.
    static let states: [AccessState] = [.active, .gracePeriod, .billingRetry, .paused, .expired, .revoked, .scheduled, .never]

    static func json(_ summary: StoreSummary, configuration: ProductConfiguration, at date: Date) -> JSONObject {
        let entitlements: [JSONValue] = summary.entitlementIDs(configuration: configuration).map { id in
            let counts = summary.counts[id] ?? StoreSummary.Counts()
            let stores = counts.stores.keys.sorted().map { store -> (String, JSONValue) in
                let byState = counts.stores[store] ?? [:]
                return (store, .object(JSONObject(states.filter { $0 != .never }.map { ($0.rawValue, .int(byState[$0] ?? 0)) })))
            }
            return .object(JSONObject([
                ("id", .string(id)),
                ("configured", .bool(configuration.entitlement(id) != nil)),
                ("states", .object(JSONObject(states.map { ($0.rawValue, .int(summary.count(id, $0))) }))),
                ("expiring_within_7_days", .int(counts.expiringIn7Days)),
                ("expiring_within_30_days", .int(counts.expiringIn30Days)),
                ("billing_trouble", .int(summary.billingTrouble(id))),
                ("stores", .object(JSONObject(stores))),
            ]))
        }
        return JSONObject([
            ("evaluated_at", .string(ISODate.format(date))),
            ("profiles", .int(summary.profiles)),
            ("unreadable_profiles", .int(summary.unreadable)),
            ("entitlements", .array(entitlements)),
        ])
    }

    /// The states the text form shows for `id`: `paused` only when some customer is paused, so
    /// that stores without Google Play or Stripe pauses read (and fit) as before.
    static func textStates(_ summary: StoreSummary, _ id: String) -> [AccessState] {
        states.filter { $0 != .paused || summary.count(id, .paused) > 0 }
    }

    /// The text form. On a terminal (`width`, in cells) a bar chart goes beside each count,
    /// at most 40 cells and never past the width, and the store table fits the width too
    /// (`TextTable`'s rule: below it, vertical records). In a pipe (nil) there are no bars.
    static func text(_ summary: StoreSummary, configuration: ProductConfiguration, at date: Date, width: Int?, style: Style) -> String {
        var out = "Store summary at \(HumanDate.format(date)): \(summary.profiles) profile\(summary.profiles == 1 ? "" : "s")"
        if summary.unreadable > 0 { out += ", \(summary.unreadable) unreadable" }
        out += "\n"
        for id in summary.entitlementIDs(configuration: configuration) {
            let counts = summary.counts[id] ?? StoreSummary.Counts()
            let states = textStates(summary, id)
            out += "\n" + style.bold(Terminal.escape(id)) + (configuration.entitlement(id) == nil ? "  (not configured; manual grants only)" : "") + "\n"
            let largest = states.map { summary.count(id, $0) }.max() ?? 0
            let countWidth = String(largest).count
            for state in states {
                let count = summary.count(id, state)
                var line = "  " + style.state(state.rawValue.padded(to: 13), state) + "  " + String(repeating: " ", count: countWidth - String(count).count) + String(count)
                // "  " + state (13) + "  " + count + "  " + bar, the last column left free.
                if let width { line += "  " + bar(count, of: largest, width: min(40, width - 1 - 19 - countWidth)) }
                out += line.trimmingTrailingSpaces + "\n"
            }
            out += "  expiring within 7 days: \(counts.expiringIn7Days), within 30 days: \(counts.expiringIn30Days)\n"
            out += "  billing trouble (grace_period + billing_retry): \(summary.billingTrouble(id))\n"
            if !counts.stores.isEmpty {
                var table = TextTable(headers: ["STORE"] + states.filter { $0 != .never }.map { $0.rawValue.uppercased() })
                for store in counts.stores.keys.sorted() {
                    let byState = counts.stores[store] ?? [:]
                    table.append([store] + states.filter { $0 != .never }.map { String(byState[$0] ?? 0) })
                }
                out += table.render(width: width.map { $0 - 2 }).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
            }
        }
        return out
    }

    /// A text bar of up to 40 cells, at least one for a non-zero count.
    static func bar(_ count: Int, of largest: Int, width: Int = 40) -> String {
        guard count > 0, largest > 0, width > 0 else { return "" }
        return String(repeating: "█", count: max(1, count * width / largest))
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
