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
        // A long user id wraps under itself on a narrow terminal, as the values below do.
        var out = ""
        for (index, piece) in TextTable.wrapped(Terminal.escape(profile.customerUserID), cells: width.map { max($0 - 8, 8) }).enumerated() {
            out += (index == 0 ? "\(style.bold("Profile")) " : "        ") + piece + "\n"
        }
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
        // On a narrow terminal a long value wraps under itself, as the vertical records do.
        let room = width.map { max($0 - labelWidth - 4, 8) }
        for (label, value) in fields {
            for (index, piece) in TextTable.wrapped(Terminal.escape(value), cells: room).enumerated() {
                out += "  " + (index == 0 ? label : "").padded(to: labelWidth) + "  " + piece + "\n"
            }
        }
        out += "\n"
        let evaluations = engine.evaluations(for: fullProfile, at: date)
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
