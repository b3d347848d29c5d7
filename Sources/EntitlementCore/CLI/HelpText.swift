/// Help text generated from command declarations, so help cannot drift from parsing.
public enum HelpText {
    /// `entitlement help COMMAND` and `entitlement COMMAND --help`.
    public static func forCommand(_ spec: CommandSpec) -> String {
        var out = "OVERVIEW: \(spec.abstract)\n"
        if let discussion = spec.discussion { out += "\n" + discussion + "\n" }
        out += "\nUSAGE: \(spec.usageLine)\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            out += table(spec.arguments.map { ("<\($0.name)>", $0.help) })
        }
        out += "\nOPTIONS:\n"
        out += table(spec.options.map { ($0.label, $0.help) })
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return out
    }

    /// `entitlement help` and `entitlement --help`.
    public static func main(_ specs: [CommandSpec]) -> String {
        var out = "OVERVIEW: Inspect and manage in-app-purchase entitlements in a local JSON store.\n"
        out += "\nUSAGE: entitlement <command> [options]\n"
        out += "\nOPTIONS:\n"
        out += table([("-h, --help", "Show help."), ("--version", "Show the version.")])
        out += "\nSUBCOMMANDS:\n"
        out += table(specs.map { ($0.name, $0.abstract) })
        out += "\n  See 'entitlement help <command>' for detailed help.\n"
        out += "\nEXIT CODES:\n"
        out += table(ExitCode.allCases.map { ("\($0.rawValue)", $0.meaning) })
        return out
    }

    static func table(_ rows: [(String, String)]) -> String {
        let width = min(max(rows.map(\.0.count).max() ?? 0, 8), 28)
        return rows.map { label, help in
            if label.count > width { return "  \(label)\n" + String(repeating: " ", count: width + 4) + help + "\n" }
            return "  " + label.padded(to: width) + "  " + help + "\n"
        }.joined()
    }
}
