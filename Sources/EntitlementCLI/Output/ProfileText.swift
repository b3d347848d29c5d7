import FoundationEssentials
import EntitlementBasics
import EntitlementJSON
import EntitlementModel
import EntitlementRules

/// `status` for people: the profile's ids and attributes, then the entitlements table.
enum ProfileText {
    static func render(_ fullProfile: Profile, engine: StatusEngine, at date: Date, explain: Bool, style: Style,
                       headers: Bool = true, width: Int? = nil) -> String {
        // The header shows the profile as known at `date`: nothing recorded later.
        let profile = fullProfile.asKnown(at: date).profile
        var out = "\(style.bold("Profile")) \(Terminal.escape(profile.customerUserID))\n"
        var fields: [(String, String)] = [("profile_id", profile.profileID ?? "-")]
        fields.append(("created", profile.createdAt.map { HumanDate.format($0, relativeTo: date) } ?? "-"))
        if !profile.customAttributes.isEmpty {
            let attributes = profile.customAttributes.entries.map { entry -> String in
                switch entry.value {
                case .string(let text): return "\(entry.key)=\(text)"
                case .number(let text): return "\(entry.key)=\(text)"
                default: return "\(entry.key)=null"
                }
            }
            fields.append(("attributes", attributes.joined(separator: ", ")))
        }
        fields.append(("transactions", String(profile.transactions.count)))
        fields.append(("evaluated at", HumanDate.format(date)))
        let labelWidth = fields.map(\.0.count).max() ?? 0
        for (label, value) in fields {
            out += "  " + label.padded(to: labelWidth) + "  " + Terminal.escape(value) + "\n"
        }
        out += "\n"
        let evaluations = engine.entitlementIDs(for: fullProfile).map { engine.evaluate($0, for: fullProfile, at: date) }
        if evaluations.isEmpty {
            out += "No entitlements are configured.\n"
        } else {
            var table = AccessLevelText.records(evaluations.map(\.accessLevel), at: date, style: style).table
            table.showsHeaders = headers
            out += table.render(width: width)
        }
        if explain {
            for evaluation in evaluations { out += "\n" + ExplanationRenderer.text(evaluation, at: date, style: style) }
        }
        return out
    }
}
