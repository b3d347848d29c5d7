import EntitlementBasics
import EntitlementModel

/// Help text generated from command declarations, so help cannot drift from parsing.
enum HelpText {
    /// `entitlement help COMMAND` and `entitlement COMMAND --help`.
    static func forCommand(_ spec: CommandSpec) -> String {
        var out = "OVERVIEW: \(spec.abstract)\n"
        if let discussion = spec.discussion { out += "\n" + discussion + "\n" }
        out += "\nUSAGE: \(spec.usageLine)\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            out += table(spec.arguments.map { ("<\($0.name)>", $0.helpLine) })
        }
        out += "\nOPTIONS:\n"
        out += table(spec.options.map { ($0.label, $0.helpLine) })
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return out
    }

    /// `entitlement help` and `entitlement --help`.
    static func main(_ specs: [CommandSpec]) -> String {
        var out = "OVERVIEW: Inspect and manage in-app-purchase entitlements in a local JSON store.\n"
        out += "\nUSAGE: entitlement [global options] <command> [options]\n"
        out += "\nGLOBAL OPTIONS (before the command, as in 'entitlement --store DIR check alice', or after it):\n"
        out += table(GlobalOptions.all.map { ($0.spec.label, $0.spec.helpLine) })
        out += "\n  Dates: ISO 8601, now, today, yesterday, tomorrow, or an offset such as -3d, +2w, -1m, +1y, -12h.\n"
        out += "\nSUBCOMMANDS:\n"
        out += table(specs.map { ($0.name, $0.abstract) })
        out += "\n  See 'entitlement help <command>' for detailed help.\n"
        out += "\nEXIT CODES:\n"
        out += table(ExitCode.allCases.map { ("\($0.rawValue)", $0.meaning) })
        out += "\nENVIRONMENT:\n"
        out += table(EnvironmentVariables.all.map { ($0.name, $0.meaning) })
        out += "\n  A single-value option given twice takes the last value.\n"
        return out
    }

    /// `help`, then "(repeatable; default: A, then B)" from the declaration, before the final period.
    static func withNotes(_ help: String, repeatable: Bool, defaults: [String]) -> String {
        var notes: [String] = []
        if repeatable { notes.append("repeatable") }
        if !defaults.isEmpty { notes.append("default: " + defaults.joined(separator: ", then ")) }
        guard !notes.isEmpty else { return help }
        let period = help.hasSuffix(".")
        return (period ? String(help.dropLast()) : help) + " (\(notes.joined(separator: "; ")))" + (period ? "." : "")
    }

    static func table(_ rows: [(String, String)]) -> String {
        let width = min(max(rows.map(\.0.count).max() ?? 0, 8), 28)
        return rows.map { label, help in
            if label.count > width { return "  \(label)\n" + String(repeating: " ", count: width + 4) + help + "\n" }
            return "  " + label.padded(to: width) + "  " + help + "\n"
        }.joined()
    }
}
