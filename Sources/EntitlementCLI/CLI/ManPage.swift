import EntitlementBasics
import EntitlementModel

/// The manual page entitlement(1) in roff, generated from the declarations that `--help` shows.
enum ManPage {
    static func render(version: String, specs: [CommandSpec] = CommandSpec.visible) -> String {
        var out = ".TH ENTITLEMENT 1 \"\" \"entitlement \(roff(version))\" \"User Commands\"\n"
        out += ".SH NAME\nentitlement \\- inspect and manage in\\-app\\-purchase entitlements in a local JSON store\n"
        out += ".SH SYNOPSIS\n.B entitlement\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]\n"
        out += ".SH DESCRIPTION\n"
        out += paragraph("entitlement reads and changes a store of one JSON file per customer. It decides access with the status rules of Adapty, Qonversion, RevenueCat and the App Store, and records who granted or revoked access, when and why. Scripts use the exit code of check as they use grep's.")
        out += paragraph("Dates (--at, --since, --until, --starts) are ISO 8601 (2026-01-15T12:00:00Z, 2026-01-15), or now, today (both the current instant, as GNU date reads them), yesterday, tomorrow (24 hours either side), or an offset: -3d, +2w, -1m, +1y, -12h. They are resolved once, when the command starts.")
        out += paragraph("A single-value option given twice takes the last value; a repeated flag counts once.")
        out += ".SH GLOBAL OPTIONS\n"
        out += paragraph("These may also come before the command, as in entitlement --store DIR check alice.")
        for option in GlobalOptions.all.map(\.spec) { out += item(option) }
        out += ".SH COMMANDS\n"
        for spec in specs { out += section(spec) }
        out += ".SH EXIT STATUS\n"
        for code in ExitCode.allCases { out += ".TP\n.B \(code.rawValue)\n\(roff(code.meaning))\n" }
        out += ".SH ENVIRONMENT\n"
        for variable in EnvironmentVariables.all { out += ".TP\n.B \(roff(variable.name))\n\(roff(variable.meaning))\n" }
        out += ".SH FILES\n"
        out += ".TP\n.I STORE/config.json\nThe product configuration: entitlements and the products that unlock them.\n"
        out += ".TP\n.I STORE/profiles/NAME.json\nOne customer profile; NAME is the escaped user id (entitlement path USER prints it).\n"
        out += ".TP\n.I STORE/.lock\nThe writer lock.\n"
        out += ".TP\n.I ~/.local/share/entitlement/store\nThe default store.\n"
        out += ".SH SEE ALSO\n"
        out += paragraph("The documentation in the source distribution: README.md, docs/store-format.md, docs/status-rules.md, docs/json-output.md, docs/grants.md, docs/import.md.")
        return out
    }

    /// One command: synopsis, description, arguments, options, environment and examples.
    static func section(_ spec: CommandSpec) -> String {
        var out = ".SS \(roff(spec.name))\n"
        out += paragraph(spec.abstract)
        out += ".PP\n.B Synopsis\n.RS\n"
        for line in spec.usageLine.split(separator: "\n") { out += roff(line.trimmingWhitespace) + "\n.br\n" }
        out += ".RE\n"
        if let discussion = spec.discussion { out += paragraph(discussion) }
        if !spec.arguments.isEmpty {
            out += ".PP\n.B Arguments\n.RS\n"
            for argument in spec.arguments { out += ".TP\n.I \(roff(argument.name))\n\(roff(argument.helpLine))\n" }
            out += ".RE\n"
        }
        out += ".PP\n.B Options\n.RS\n"
        for option in spec.options { out += item(option) }
        out += ".RE\n"
        let variables = spec.options.compactMap(\.environmentVariable)
        if !variables.isEmpty {
            out += ".PP\n.B Environment\n.RS\n" + roff(variables.joined(separator: ", ")) + "\n.RE\n"
        }
        if !spec.examples.isEmpty {
            out += ".PP\n.B Examples\n.RS\n.nf\n"
            for example in spec.examples { out += roff(example) + "\n" }
            out += ".fi\n.RE\n"
        }
        return out
    }

    private static func item(_ option: OptionSpec) -> String {
        var label = option.short.map { "\\fB\\-\(roff(String($0)))\\fR, " } ?? ""
        label += "\\fB\\-\\-\(roff(option.name))\\fR"
        if let value = option.valueName { label += " \\fI\(roff(value))\\fR" }
        return ".TP\n\(label)\n\(roff(option.helpLine))\n"
    }

    private static func paragraph(_ text: String) -> String {
        let joined = text.split(separator: "\n").map { $0.trimmingWhitespace }.joined(separator: " ")
        return ".PP\n\(roff(joined))\n"
    }

    /// Text safe in roff: backslashes, hyphens and non-ASCII escaped, no line starting with a control character.
    static func roff<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value > 0x7E:
                // Beyond ASCII, as groff's named Unicode escape: \[u2026] for an ellipsis.
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
